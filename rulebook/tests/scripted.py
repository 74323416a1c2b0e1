"""A scripted roller for the rulebook's tests: the dice come up exactly as the test says."""


class ScriptedRng:
    """Hands out queued die faces from ``randint`` and records which dice were asked for.

    Every rulebook die runs from 1, so a face that does not fit the die asked for (a 7 on a
    d6) fails the test at once instead of producing a result no roll could give.
    """

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.asked: list[int] = []

    def randint(self, low: int, high: int) -> int:
        face = self.faces.pop(0)
        assert low == 1 and 1 <= face <= high, f"scripted {face} does not fit d{high}"
        self.asked.append(high)
        return face

    def done(self) -> bool:
        """Tell whether every queued face has been rolled."""
        return not self.faces

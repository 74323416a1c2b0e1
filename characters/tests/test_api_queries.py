"""Query counts: a sheet costs the same whatever it holds, a list the same however long it is."""

import pytest

from .factories import CharacterFactory, fill_sheet

pytestmark = pytest.mark.django_db

#: Access (the character with the caller's role, one query) + the sheet (the character, six kinds of line).
SHEET_QUERIES = 1 + 1 + 6



def new_character(personas, owner: str = "player"):
    return CharacterFactory(campaign=personas["campaign"], owner=personas[owner])


@pytest.mark.parametrize("tail", ["", "budget/", "skills/", "weapons/"])
def test_a_sheet_costs_the_same_with_1_or_30_skills(personas, api_as, django_assert_num_queries, tail):
    small, big = new_character(personas), new_character(personas)
    fill_sheet(small, skills=1, others=1)
    fill_sheet(big, skills=30, others=10)
    client = api_as("gm")
    with django_assert_num_queries(SHEET_QUERIES):
        small_body = client.get(f"/api/v1/characters/{small.pk}/{tail}").json()
    with django_assert_num_queries(SHEET_QUERIES):
        big_body = client.get(f"/api/v1/characters/{big.pk}/{tail}").json()
    if tail == "":
        assert (len(small_body["skills"]), len(big_body["skills"])) == (1, 30)
        assert len(big_body["armour"]) == 10 and all(s["target"] for s in big_body["skills"])


@pytest.mark.parametrize("query, count", [("", 1), ("?campaign={campaign}", 2)])
def test_the_list_costs_the_same_with_1_or_10_characters(personas, api_as, django_assert_num_queries,
                                                         query, count):
    client = api_as("viewer")
    path = "/api/v1/characters/" + query.format(campaign=personas["campaign"].pk)
    fill_sheet(new_character(personas), skills=3, others=1)
    with django_assert_num_queries(count):
        assert len(client.get(path).json()) == 1
    for n in range(9):
        fill_sheet(new_character(personas, owner="gm" if n % 2 else "other_player"), skills=3, others=1)
    with django_assert_num_queries(count):
        assert len(client.get(path).json()) == 10

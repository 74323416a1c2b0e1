"""The signed link mailed to an address (a new e-mail on the account page, or a sign-up's): who
it is for and which address, good for two days."""

from django.core import signing

#: An e-mail's link (a new address, or a sign-up's): signed for its account and the address, good
#: for two days.
EMAIL_SALT = "zenergate.account.email"
EMAIL_LINK_SECONDS = 2 * 24 * 3600


def email_link_token(user_id: int, email: str) -> str:
    return signing.dumps({"user": user_id, "email": email}, salt=EMAIL_SALT)

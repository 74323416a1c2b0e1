"""Load the demo campaign (idempotent: running it again changes nothing)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaign import services
from campaign.models import Campaign, Membership

DEMO_PASSWORD = "zener-demo"
DEMO_CAMPAIGN = "Chronosquad Seven"


class Command(BaseCommand):
    help = "Create the demo users (gm, alice, bob, carol; password zener-demo) and the demo campaign."

    @transaction.atomic
    def handle(self, *args, **options):
        User = get_user_model()
        users = {}
        for username in ("gm", "alice", "bob", "carol"):
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            users[username] = user
        campaign = Campaign.objects.filter(name=DEMO_CAMPAIGN, memberships__user=users["gm"]).first()
        if campaign is None:
            campaign = services.campaign_create(
                name=DEMO_CAMPAIGN, by=users["gm"],
                description="Two temporanauts, one unreliable gate, and a long way home.",
            )
        for username in ("alice", "bob"):
            if not Membership.objects.filter(campaign=campaign, user=users[username]).exists():
                services.membership_add(campaign=campaign, username=username, role="player", by=users["gm"])
        self.stdout.write(self.style.SUCCESS(
            f"Demo ready: campaign #{campaign.pk} “{campaign.name}”; users gm, alice, bob, carol "
            f"(password {DEMO_PASSWORD})."))

"""`manage.py send_reminders`: remind the Finals qualifiers who have not answered.

Each series reminds ``reminder_days`` before its deadline, once, whoever was invited before
then and has not answered. The workers do this by themselves (a deferred task queued for
that moment, series/invitation_mail.py); this command runs the same check, for a queue that
cannot defer tasks or as a safety net from cron (it never reminds anyone twice).
"""

from django.core.management.base import BaseCommand

from series.invitation_mail import reminders_send


class Command(BaseCommand):
    help = "Email a reminder to Finals qualifiers who have not answered, when it is due."

    def handle(self, *args, **options) -> None:
        count = reminders_send()
        self.stdout.write(f"{count} reminder{'' if count == 1 else 's'} queued.")

"""The people who run an event, as Django groups with the permissions their pages check.

Organizer (tournament director) > head judge > judge; bankers only reach their table.
Pages check permissions, never group names, so an organizer can give one volunteer two
roles by adding them to two groups.
"""

from django.utils.translation import gettext_lazy as _

ORGANIZER, HEAD_JUDGE, JUDGE, BANKER = "Organizer", "Head judge", "Judge", "Banker"

ROLE_PERMISSIONS: dict[str, list[str]] = {
    ORGANIZER: ["manage_event", "head_judge_event", "judge_event"],
    HEAD_JUDGE: ["head_judge_event", "judge_event"],
    JUDGE: ["judge_event"],
    BANKER: ["bank_event"],
}

MANAGE = "tournament.manage_event"
HEAD_JUDGE_PERMISSION = "tournament.head_judge_event"
JUDGE_PERMISSION = "tournament.judge_event"
BANK = "tournament.bank_event"

# What a page says where an official is shown a step another role takes.
ROLE_DOES = {
    ORGANIZER: _("The organizer does this."),
    HEAD_JUDGE: _("The head judge does this."),
    JUDGE: _("A judge does this."),
}


def role_holding(permission: str) -> str | None:
    """The narrowest role given ``permission`` ("tournament.<codename>"): the one who
    takes a step that needs it."""
    codename = permission.removeprefix("tournament.")
    holding = [role for role, codenames in ROLE_PERMISSIONS.items() if codename in codenames]
    return min(holding, key=lambda role: len(ROLE_PERMISSIONS[role]), default=None)


def ensure_roles(apps=None) -> None:
    """Create the groups and give them their permissions; safe to run again."""
    from django.apps import apps as global_apps
    from django.contrib.auth.management import create_permissions

    apps = apps or global_apps
    # Permissions are normally created after migrations; a data migration needs them now.
    for app_config in global_apps.get_app_configs():
        if app_config.label in ("tournament", "auth"):
            create_permissions(app_config, verbosity=0, apps=apps)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for role, codenames in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=role)
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label="tournament", codename__in=codenames)
        )

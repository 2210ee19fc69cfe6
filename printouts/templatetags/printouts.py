from django import template

register = template.Library()


@register.filter
def money(amount, edition) -> str:
    """An amount in the edition's currency: $1,400 or Rs1,400."""
    if amount is None or amount == "":
        return ""
    return edition.money(int(amount))


@register.filter
def word(edition, key: str) -> str:
    if key.endswith("s"):
        return edition.word(key[:-1], 2)
    return edition.word(key)

from django import forms

from spectator.models import PAGES, PublicRelease


class ReleaseForm(forms.ModelForm):
    """The organizer's switches: one checkbox per public page, and the hold."""

    class Meta:
        model = PublicRelease
        fields = [*PAGES, "held"]

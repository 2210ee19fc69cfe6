from django import forms

from .models import PAGES, PublicRelease


class ReleaseForm(forms.ModelForm):
    """The organizer's switches, one checkbox per public page."""

    class Meta:
        model = PublicRelease
        fields = list(PAGES)

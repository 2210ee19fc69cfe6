"""Registration routes: self-registration, on-the-day entry, CSV import and export."""

urlpatterns: list = []

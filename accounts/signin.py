"""Signing in: every password check slowed down after failures, in one place.

The counting happens in the authentication backend (``ThrottledModelBackend``), so every
way to sign in shares it: the login page, the admin's login page, and anything else that
calls ``django.contrib.auth.authenticate`` with a request. Before a password is checked the
backend takes an attempt from ``throttle.login_attempt``; a refused attempt raises
``PermissionDenied``, which ``authenticate`` treats as "no one", and the login forms turn
into "try again in N seconds" (the login page answers 429 with ``Retry-After``).

Why not django-axes: it hooks the same place and counts every path too, but its lock-out
is a hard one (N failures, then refused for the cool-off, right password included; its
progressive tiers are not in a release yet), which is exactly the targeted lock-out a
stranger could use against the head judge mid-round. It would also be a second mechanism
beside accounts/throttle.py, which the registration form, the banker links and the
password reset need anyway, plus two models and a middleware. What axes would have given
us, the hook into ``authenticate``, is the one documented extension point used here.

A device that has logged in before is recognised by a signed cookie (``boardwalk_device``)
listing keyed digests of the usernames it signed in as. Its attempts for those usernames
are counted on their own, so a stranger guessing a name never slows down that person's own
tablet. The cookie proves only "this browser knew the password once"; it opens nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import user_logged_in
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.contrib.auth.views import (
    LoginView,
    LogoutView,
    PasswordChangeView,
    PasswordResetView,
)
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.throttle import (
    PASSWORD_RESETS_PER_EMAIL,
    PASSWORD_RESETS_PER_IP,
    LoginAttempt,
    client_ip,
    login_attempt,
    login_subject,
    throttle_hit,
)

# --- Known devices ----------------------------------------------------------------------------

DEVICE_COOKIE = "boardwalk_device"
_DEVICE_SALT = "boardwalk.signin.device"
DEVICE_MAX_AGE_S = 180 * 24 * 3600
# A shared tablet may be signed in on by a few officials over a day; the oldest drop off.
_DEVICE_USERNAMES_MAX = 8
_REFUSAL = "_boardwalk_login_refusal"
_NEW_DEVICE_COOKIE = "_boardwalk_device_cookie"


def _username_digest(username: str) -> str:
    # Keyed, so the cookie does not show whose tablet it is.
    return salted_hmac(_DEVICE_SALT, login_subject(username)).hexdigest()[:20]


def _device(request: HttpRequest) -> dict[str, Any] | None:
    value = request.COOKIES.get(DEVICE_COOKIE)
    if not value:
        return None
    try:
        device = signing.loads(value, salt=_DEVICE_SALT, max_age=DEVICE_MAX_AGE_S)
    except signing.BadSignature:
        return None
    ok = isinstance(device, dict) and isinstance(device.get("id"), str)
    return device if ok and isinstance(device.get("names"), list) else None


def known_device(*, request: HttpRequest, username: str) -> str | None:
    """This browser's device id, if it has logged in as ``username`` before."""
    device = _device(request)
    if device and _username_digest(username) in device["names"]:
        return device["id"]
    return None


@receiver(user_logged_in)
def _remember_device(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """Every successful login (any page) marks this browser as known for that username."""
    if request is None:
        return
    device = _device(request) or {"id": secrets.token_urlsafe(12), "names": []}
    digest = _username_digest(user.get_username())
    names = [name for name in device["names"] if name != digest] + [digest]
    value = {"id": device["id"], "names": names[-_DEVICE_USERNAMES_MAX:]}
    setattr(request, _NEW_DEVICE_COOKIE, signing.dumps(value, salt=_DEVICE_SALT))


class KnownDeviceMiddleware:
    """Sets the cookie ``_remember_device`` prepared (a signal has no response to set it on)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        value = getattr(request, _NEW_DEVICE_COOKIE, None)
        if value:
            response.set_cookie(
                DEVICE_COOKIE,
                value,
                max_age=DEVICE_MAX_AGE_S,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response


# --- The backend --------------------------------------------------------------------------------


class ThrottledModelBackend(ModelBackend):
    """Django's ModelBackend, behind ``throttle.login_attempt`` whenever there is a request.

    Without a request (a management command, ``Client.login`` in tests) there is no address
    to count by and no stranger at the door, so nothing is counted.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(self._username_field())
        if request is None or username is None or password is None:
            return super().authenticate(request, username, password, **kwargs)
        attempt = login_attempt(
            username=username,
            address=client_ip(request),
            device=known_device(request=request, username=username),
        )
        if attempt.refused:
            setattr(request, _REFUSAL, attempt)
            raise PermissionDenied  # authenticate() stops here and reports "no one"
        user = super().authenticate(request, username, password, **kwargs)
        attempt.resolve(succeeded=user is not None)
        return user

    @staticmethod
    def _username_field() -> str:
        from django.contrib.auth import get_user_model

        return get_user_model().USERNAME_FIELD


def login_refusal(request: HttpRequest | None) -> LoginAttempt | None:
    """The refused attempt of this request, if its password was not even checked."""
    return getattr(request, _REFUSAL, None) if request is not None else None


def wait_text(seconds: int) -> str:
    if seconds < 90:
        return ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}
    minutes = -(-seconds // 60)
    return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}


class _RefusalMessage:
    """For AuthenticationForm and its admin version: say "wait" rather than "wrong"."""

    request: HttpRequest | None

    def get_invalid_login_error(self):
        refusal = login_refusal(self.request)
        if refusal is None:
            # Django's AuthenticationForm has it (4.1+); its stubs do not.
            return super().get_invalid_login_error()  # type: ignore[misc]
        return ValidationError(
            _(
                "Too many failed attempts to log in. Try again in %(wait)s, or ask the "
                "organizer to reset your password."
            )
            % {"wait": wait_text(refusal.retry_after_s)},
            code="throttled",
        )


class ThrottledAuthenticationForm(_RefusalMessage, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(_RefusalMessage, AdminAuthenticationForm):
    pass


# Who else may list accounts on the login page: the demo app registers its own
# (demo/apps.py), which it names only while DEBUG is on; tournament cannot import demo.
_LOGIN_ACCOUNTS: list[Callable[[], list[str]]] = []


def login_accounts_register(provider: Callable[[], list[str]]) -> None:
    """Show the usernames ``provider()`` returns under the login form (none: nothing)."""
    if provider not in _LOGIN_ACCOUNTS:
        _LOGIN_ACCOUNTS.append(provider)


class ThrottledLoginView(LoginView):
    """Django's login page; a refused attempt is the form again, with 429 and Retry-After.

    A person reads the message, a script reads the status, and neither learns whether the
    password was right: it was not checked.
    """

    form_class = ThrottledAuthenticationForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["demo_accounts"] = [name for provider in _LOGIN_ACCOUNTS for name in provider()]
        return context

    def form_invalid(self, form):
        response = super().form_invalid(form)
        refusal = login_refusal(self.request)
        if refusal is not None:
            response.status_code = 429
            response["Retry-After"] = str(refusal.retry_after_s)
        return response


# --- Password reset ---------------------------------------------------------------------------


class ThrottledPasswordResetView(PasswordResetView):
    """Django's password reset, limited per address and per email asked for.

    Every request counts, whether or not the address belongs to anyone, so the limit tells
    nothing about which addresses have accounts.
    """

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        email = request.POST.get("email", "").strip().casefold()
        over_address = throttle_hit(limit=PASSWORD_RESETS_PER_IP, subject=client_ip(request))
        over_email = throttle_hit(limit=PASSWORD_RESETS_PER_EMAIL, subject=email)
        if not (over_address or over_email):
            return super().post(request, *args, **kwargs)
        form = self.get_form()
        form.full_clean()
        form.add_error(
            "email",
            _(
                "Too many password reset requests. Look for the email already sent, try "
                "again in an hour, or ask the organizer to reset your password."
            ),
        )
        response = self.render_to_response(self.get_context_data(form=form), status=429)
        response["Retry-After"] = str(PASSWORD_RESETS_PER_IP.window_seconds)
        return response


# --- Password change ----------------------------------------------------------------------------


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's password change, its old-password check counted like a sign-in.

    A signed-in session left open on a shared tablet must not become a way to guess the
    official's password: each check takes an attempt from ``throttle.login_attempt`` for
    the account's username (from this address, or this known device), exactly as the login
    page would, and a refused one is not checked at all.
    """

    def __init__(self, user, *args: Any, request: HttpRequest | None = None, **kwargs: Any):
        super().__init__(user, *args, **kwargs)
        self.request = request
        self.refusal: LoginAttempt | None = None

    def clean_old_password(self) -> str:
        if self.request is None:
            return super().clean_old_password()
        username = self.user.get_username()
        attempt = login_attempt(
            username=username,
            address=client_ip(self.request),
            device=known_device(request=self.request, username=username),
        )
        if attempt.refused:
            self.refusal = attempt
            raise ValidationError(
                _("Too many wrong passwords. Try again in %(wait)s.")
                % {"wait": wait_text(attempt.retry_after_s)},
                code="throttled",
            )
        try:
            old_password = super().clean_old_password()
        except ValidationError:
            attempt.resolve(succeeded=False)
            raise
        attempt.resolve(succeeded=True)
        return old_password


class ThrottledPasswordChangeView(PasswordChangeView):
    """Django's password change page; a refused attempt is the form again, 429 and
    Retry-After, like the login page."""

    form_class = ThrottledPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.refusal is not None:
            response.status_code = 429
            response["Retry-After"] = str(form.refusal.retry_after_s)
        return response


# --- Signing out --------------------------------------------------------------------------------


class ForgetfulLogoutView(LogoutView):
    """Django's logout, which also asks the browser to forget what the site kept offline.

    A banker's tablet keeps the table's pages (aliases, amounts, the banker's name) and its
    queue for the times without a network; after signing out they must not open for the next
    person. ``static/js/logout.js`` sends or asks about waiting actions and clears them
    first; this header is the rest: the browser's cache and the site's storage (the service
    worker, its caches, IndexedDB), in every browser that honours it over HTTPS. The
    cookies stay: the known-device cookie keeps the throttle off the next sign-in.
    """

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response

"""The web service: the app factory, its routers, the guards every request passes and the phone page."""

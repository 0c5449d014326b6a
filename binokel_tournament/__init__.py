"""The Django project and its one app: the Binokel tournament desk."""

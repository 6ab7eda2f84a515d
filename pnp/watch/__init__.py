"""Watch: saved changes in; a rebuild and a reloading proof gallery out.
"""

"""The command: configuration, the engine (a configured PyLinter), the worker pool,
the cache, the pylint/astroid adjustments, the CLI, and the plugin's registration.
"""

"""Facts as data: the API tables (apis), the rule manifest, mslint's version. Imports nothing of mslint outside this folder.
"""

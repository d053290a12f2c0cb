"""Findings (one typed model), applying fixes, notebooks, SARIF, the rule catalogue:
knows findings, not how they were found.
"""

"""Questions about code, never pylint reporting: syntax helpers (astutil), qualified
names (resolve), values of expressions (values), graph and differentiated code per
module (scope), the programs and their modes (mode), a file's place in its
project (project), the exact edits a fix makes (edits). Imports only mslint.knowledge.
"""

"""History: builds over time in; what each face was, what changed and what to
reprint out.
"""

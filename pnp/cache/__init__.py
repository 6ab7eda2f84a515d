"""Cache: the PDF build record (pdfs.py), kept beside a game's PDFs. What is kept in the
user's cache is pnp.engine's."""

"""Grading a class: collect reports, grade them in parallel, summarise, export."""

"""Reading a learner's markdown report: lines, the five fields, and the sections after them."""

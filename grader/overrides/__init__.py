"""An instructor's corrections to the automatic grade: changed verdicts and score adjustments.

``model`` reads them (a YAML file, or a filled-in review queue CSV), ``apply`` applies them
to one graded part, ``rows`` finds each its part in a batch, ``queue`` writes and reads the
review queue, ``edit`` writes entries into an overrides file.
"""

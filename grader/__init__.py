"""triage-grader: grades written profiler-triage reports against the table they describe."""

__version__ = "0.1.0"

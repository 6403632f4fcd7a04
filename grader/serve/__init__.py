"""``grade serve``: a self-check page and a JSON API on the same engine as ``grade REPORT``.

Starlette and uvicorn are the optional ``serve`` extra; nothing here imports them until
the command runs (``grader.serve.run``), so grading a report never does.
"""

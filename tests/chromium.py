"""How the browser tests start Debian's Chromium: headless, as root in a sandbox with no
network (the machine notes list these flags; without the networking ones Chromium keeps
trying to reach Google's hosts)."""

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

"""Reports that look copied: ``text`` reads a part as the comparison sees it (the exercise's
own template lines and field labels removed), ``pairs`` finds the near-identical pairs."""

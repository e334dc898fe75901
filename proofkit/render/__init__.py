"""Results as text: the human-readable reports and the runnable reproduce line printed beside every
verdict."""

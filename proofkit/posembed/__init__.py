"""A single attention head with uniform attention and closed-form positional embeddings, exactly
(:mod:`.model`)."""

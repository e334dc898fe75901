"""C-RASP to Limit Transformers (Huang et al. 2024, Thm 9): the compiler, explicit networks and their
exact forward pass, the assumption-drop variants, and the long-string screen of a compiled network."""

"""Parity snippets for ``int[]`` arguments (``_functions/_args.py``'s ``int_list``): PyTorch's
parser checks the first element before the call (``... at pos 0``) and unpacks the others
afterwards (``failed to unpack the object at pos 2``), reading a later bool as an int."""

INT_LISTS: dict[str, str] = {
    "int_list_arguments_first_element_then_the_others": """
        x = T.ones(4, 1)
        calls = [
            lambda: T.nn.functional.pad(x, (1, True)),
            lambda: T.nn.functional.pad(x, (1, 2.0)),
            lambda: T.nn.functional.pad(x, (1.0, 2)),
            lambda: T.nn.functional.pad(x, (1, None)),
            lambda: T.nn.functional.pad(x, 1),
            lambda: T.unflatten(x, 0, (2, 2.0)),
            lambda: T.unflatten(x, 0, (2.0, 2)),
            lambda: T.unflatten(x, 0, 4),
            lambda: T.unflatten(x, 0, ()),
            lambda: x.unflatten(0, None),
            lambda: x.unflatten(0, (4, True)),
            lambda: x.unflatten(0, (2, "a")),
            lambda: x.unflatten(0, [2, T.tensor(2.0)]),
            lambda: x.unflatten(0, [2, T.tensor(2)]),
            lambda: x.flip((0, True)),
            lambda: x.flip((0, 1.0)),
            lambda: x.view(4, True),
            lambda: x.sum((0, True)),
            lambda: T.roll(x, (1, 2.5), (0, 1)),
        ]
        for f in calls:
            try:
                show(f())
            except (TypeError, RuntimeError) as e:
                show(type(e).__name__, str(e))
    """,
}

"""Research adapters: Pitch for PettingZoo, Gymnasium, OpenSpiel (``pip install pitchcards[rl]``).

Nothing here is imported by the core.  Import the adapter you need::

    from pitchcards.envs.pettingzoo import env          # PettingZoo AEC environment
    from pitchcards.envs.gymnasium import PitchEnv      # Gymnasium, one learning seat
    import pitchcards.envs.openspiel                    # registers "python_pitch" with pyspiel

Every observation is built from one seat's :class:`~pitchcards.views.View` by
:mod:`pitchcards.envs.encoding`; ``docs/research.md`` documents the encodings and rewards.
"""

"""Games without a game master (docs/without-gm.md): every entry signed by its player,
every copy checked by everyone, draws no one can bias.

- :mod:`.entries`: what players sign, in its one byte form, and the signatures (SSHSIG);
- :mod:`.blocks`: an entry and its signatures as a block of text for a mail or a forum
  post, read back from any text around it;
- :mod:`.setup`: the proposal, every seat's join and reveal, and the start;
- :mod:`.chain`: the one path an entry takes into a game (turns, claims of a missed
  deadline, the arbiters' rulings), and the deadline;
- :mod:`.chance`: draws during play, pending until the reveals they need are in;
- :mod:`.folder`: a player's files and the transaction each change is (accept, rebuild);
- :mod:`.verify`: the whole game checked again, in words; the proofs of cheating;
- :mod:`.referee`: players' signatures on their orders in a game a GM runs;
- :mod:`.export`: an entry's bytes for ``ssh-keygen -Y verify``;
- :mod:`.relay`: the mail's part: check entries and pass them on, holding no key;
- :mod:`.refusals`: one code per reason an entry is refused.
"""

"""Every user-facing msgid of the scoring engine, in one place.

The msgids are English (the English text *is* the msgid); the German text lives in
``scoring/locale/de/LC_MESSAGES/engines.po``. A test checks that every constant here has a German
translation there, so a new message cannot ship untranslated.
"""

from __future__ import annotations

from scoring.errors import N_

# --- reading input (JSON shapes, types) --------------------------------------------------------
INVALID_JSON = N_("The input is not valid JSON ({detail}).")
JSON_TOO_DEEP = N_("The input is nested too deeply to be read.")
NOT_AN_OBJECT = N_("Expected an object with named fields.")
NOT_A_LIST = N_("Expected a list.")
NOT_AN_INTEGER = N_("Expected a whole number.")
NOT_A_BOOLEAN = N_("Expected true or false.")
NOT_TEXT = N_("Expected a text.")
UNKNOWN_FIELD = N_('Unknown field "{name}".')
REQUIRED = N_("This field is required.")
RULES_FILE_UNREADABLE = N_("The rule set file cannot be read ({detail}).")
# The same msgid as the pairing CLI's (one catalogue entry, one wording for both commands).
INVALID_COMMAND_LINE = N_("Invalid command line: {detail}")

# --- one game ----------------------------------------------------------------------------------
UNKNOWN_KIND = N_('Unknown game kind "{value}"; use one of: {choices}.')
NOT_PLAYED_CONCEDED = N_("This rule set does not let the declarer concede (Abschreiben).")
NOT_PLAYED_DURCH = N_("This rule set plays no Durch.")
NOT_PLAYED_DURCH_AUFGELEGT = N_("This rule set plays no Durch aufgelegt.")
NOT_PLAYED_BETTEL = N_("This rule set plays no Bettel.")
PARTY_COUNT = N_(
    "A game has 3 players (12 cards each) or 2 pairs (pair table), not {count} parties."
)
DECLARER_MISSING = N_("Enter the declarer.")
DECLARER_RANGE = N_("There is no party {value}; the declarer must be one of the {count} parties.")
BID_MISSING = N_("Enter the bid.")
BID_MISSING_LOST_DURCH = N_("A lost Durch costs {factor} × the bid: enter the bid.")
BID_MISSING_LOST_BETTEL = N_("A lost Bettel costs {factor} × the bid: enter the bid.")
BID_TOO_LOW = N_("The bid must be at least {min_bid} (now {bid}).")
BID_STEP = N_("The bid must be a multiple of {step} (now {bid}).")
BID_TOO_HIGH = N_(
    "No hand can make a bid above {highest} (the highest meld + {tricks} for all tricks); now "
    "{bid}. A typo?"
)
MELD_IN_DURCH = N_("A Durch has no melds: leave the meld empty.")
MELD_IN_BETTEL = N_("A Bettel has no melds: leave the meld empty.")
MELD_NEGATIVE = N_("The meld cannot be negative (now {meld}).")
MELD_STEP = N_("The meld must be a multiple of 10 (now {meld}).")
MELD_IMPOSSIBLE_HAND = N_(
    "No {cards}-card hand can show a meld of {meld}; the nearest possible totals are {below} "
    "and {above}."
)
MELD_IMPOSSIBLE_HAND_MAX = N_(
    "No {cards}-card hand can show a meld of {meld}; the highest possible total is {highest}."
)
MELD_IMPOSSIBLE_PAIR = N_(
    "Two partners with {cards} cards each cannot show {meld} together; the nearest possible "
    "totals are {below} and {above}."
)
MELD_IMPOSSIBLE_PAIR_MAX = N_(
    "Two partners with {cards} cards each cannot show {meld} together; the highest possible "
    "total is {highest}."
)
DECLARER_TRICKS_TOO_FEW = N_(
    "The declarer's tricks include the 4 pressed cards, so at least 8 eyes (4 Unter); now {tricks}."
)
DECLARER_TRICKS_BELOW_PRESSED = N_(
    "The declarer's tricks include the {cards} pressed cards, so at least {least} eyes; now "
    "{tricks}."
)
TRICKS_BELOW_ONE_TRICK = N_(
    "A party that took a trick has at least {least} eyes (a trick holds {cards} cards); now "
    "{tricks}. Without a trick leave it at 0."
)
TRICKS_RANGE = N_("The tricks must be between 0 and {eyes} (now {tricks}).")
TRICKS_SUM = N_("The tricks of all parties must add up to {eyes} (now {total}).")
TRICKS_IN_CONCEDED = N_("A conceded game has no tricks: leave the tricks empty.")
TOOK_TRICK_IN_CONCEDED = N_("A conceded game is not played: do not mark whether a trick was taken.")
TOOK_TRICK_PRESSED_ONLY = N_(
    "A declarer who took no trick has only the {cards} pressed cards, at most {most} eyes (now "
    "{tricks})."
)
TOOK_TRICK_BUT_NO_EYES = N_("Marked as having taken a trick, but the tricks are 0.")
NO_TRICK_BUT_EYES = N_(
    "Marked as having taken no trick, but the tricks are {tricks}; without a trick only the "
    "declarer's pressed cards count."
)
NO_PENALTIES = N_("This rule set has no minus points: leave them empty.")
PENALTY_NEGATIVE = N_("Enter the minus points as a positive number (now {penalty}).")
PENALTY_NOT_A_SUM = N_("Minus points are a sum of {values} (now {penalty}).")
REVOKED_UNKNOWN = N_("There is no party {value} that could have revoked.")
REVOKED_TWICE = N_("Party {value} is marked as revoked more than once.")
REVOKED_IN_CONCEDED = N_("A conceded game is not played, so nobody can revoke.")

# --- a whole score sheet (scoring/sheet.py) ----------------------------------------------------
SHEET_TOO_MANY_GAMES = N_("This table's sheet has {games} games, not {count}.")
SHEET_COLUMN_COUNT = N_("This table's sheet has {columns} columns.")
SHEET_DEALER_RANGE = N_("The dealer must be one of the {seats} seats at this table.")
SHEET_DURCH_PAIR_DEALER = N_(
    "After the Durch the Durch player deals: enter their seat as this game's dealer."
)
SHEET_DECLARER_RANGE = N_("The declarer must be one of the {columns} parties on the sheet.")
SHEET_DECLARER_SITS_OUT = N_("The dealer sits out this game and cannot be the declarer.")
SHEET_SITS_OUT_VALUE = N_("The dealer sits out this game: leave this empty.")
WRITTEN_DIFFERS = N_("Scorer {written}, computed {computed}.")

# --- rule sets ---------------------------------------------------------------------------------
UNKNOWN_RULE = N_('There is no rule called "{name}".')
UNKNOWN_PRESET = N_('Unknown rule set "{name}"; choose one of: {choices}.')
MUST_BE_AT_LEAST = N_("Must be at least {min} (now {value}).")
MUST_BE_MULTIPLE_OF_10 = N_("Must be a multiple of 10 (now {value}).")
MUST_BE_ONE_OF = N_('Must be one of: {choices} (now "{value}").')
MUST_NOT_BE_EMPTY = N_("Must not be empty.")
UNKNOWN_TABLE_KIND = N_('Unknown table kind "{kind}"; use three, pairs or four_sitout.')
TABLE_KINDS_MISSING = N_("Games per round are missing for: {kinds}.")
DUPLICATE_ENTRY = N_('"{value}" appears more than once.')
NOT_PAIRS = N_("Expected a list of pairs of whole numbers, e.g. [[60, 2], [120, 3]].")
SCALING_ORDER = N_("The thresholds must rise from 0 on (now {value}).")
GAME_KINDS_WITHOUT_PLAYED = N_('The game kinds must include "played".')
UNKNOWN_TIE_BREAK = N_('Unknown tie-break "{key}"; choose from: {choices}.')
UNKNOWN_HAND_SHAPE = N_('Unknown game shape "{shape}"; use three or pairs.')
HANDS_EXCEED_DECK = N_(
    "{players} hands of {cards} cards need more than the {deck} cards of the deck."
)
UNKNOWN_RANK = N_('Unknown rank "{rank}"; use A, 10, K, O, U or 7.')
MELD_KEY_FORM = N_(
    'A meld name is written in small letters, digits and _, starting with a letter (now "{value}").'
)
MELD_CARD_TWICE = N_("A meld of one suit can hold a card at most twice ({rank}).")
RUNDLAUF_NEEDS_PAAR = N_('A Rundlauf needs a suit meld "paar" of K and O.')

# --- cards and melds ---------------------------------------------------------------------------
TOO_MANY_COPIES = N_("A hand can hold at most two copies of {card}.")
COUNT_NEGATIVE = N_("A count cannot be negative (now {value}).")
HAND_SIZE = N_("A hand has 0 to {deck} cards (now {cards}).")
NO_PAIR_TABLES = N_("This rule set has no pair tables.")
NO_WITNESS = N_("No {cards}-card hand shows a meld of exactly {total}.")

# --- describing a rule set (printed on score sheets) -------------------------------------------
DESCRIBE_BID = N_("Bid: at least {min_bid}, in steps of {step}.")
DESCRIBE_WON = N_("Won game: the declarer scores meld + tricks.")
DESCRIBE_LOST = N_("Lost game: −{factor} × bid.")
DESCRIBE_LOST_EXTRA = N_(
    "Lost game (not a Durch or Bettel): −({factor} × bid + {extra}); the melds are forfeited."
)
DESCRIBE_OPPONENTS = N_("Opponents always score meld + tricks.")
DESCRIBE_OPPONENTS_HALF_BID = N_(
    "Opponents score meld + tricks; when the declarer loses, also half the bid (rounded up to 10)."
)
DESCRIBE_CONCEDED_HALF_BID = N_(
    "Conceded: declarer −{factor} × bid; each opponent meld + half the bid (rounded up to 10)."
)
DESCRIBE_CONCEDED_PER_PLAYER = N_(
    "Conceded: declarer −{factor} × bid; each opponent meld + {bonus} per player in the game "
    "(a dealer who sits out does not count)."
)
DESCRIBE_CONCEDED_PER_OPPONENT = N_(
    "Conceded: declarer −{factor} × bid; each opponent meld + {bonus}."
)
DESCRIBE_EYES = N_("Eyes: A {A}, 10 {Z}, K {K}, O {O}, U {U}; last trick {last}.")
DESCRIBE_DURCH = N_("Durch: +{won} when won, −{factor} × bid when lost.")
DESCRIBE_NO_DURCH = N_("No Durch is played.")
DESCRIBE_DURCH_AUFGELEGT = N_("Durch aufgelegt: +{won} when won, −{factor} × bid when lost.")
DESCRIBE_BETTEL = N_(
    "Bettel (the declarer takes no trick): +{won} when won, −{factor} × bid when lost."
)
DESCRIBE_NO_CONCEDING = N_("The declarer cannot concede.")
DESCRIBE_ROUND10 = N_(
    "Tricks are rounded to 10 (5 rounds up); won or lost is decided on the exact eyes."
)
DESCRIBE_NO_ROUNDING = N_("Tricks count exactly, without rounding.")
DESCRIBE_MELD_NEEDS_TRICK = N_("Without a trick the meld is lost.")
DESCRIBE_MELD_WITHOUT_TRICK = N_("The meld counts even without a trick.")
DESCRIBE_REVOKE = N_("Revoked: the declarer loses the game; an opponent's tricks count 0.")
DESCRIBE_RUNDLAUF = N_("Rundlauf {value}; with a Familie {with_familie} + the Familie.")
DESCRIBE_DOUBLE_FAMILIE_TWICE = N_("A double Familie counts as two Familien.")
DESCRIBE_DOUBLE_FAMILIE_ONCE = N_("A double Familie counts as one Familie and one Paar.")
DESCRIBE_DOUBLE_FAMILIE_VALUE = N_("A double Familie counts {plain}, in trump {trump}.")
DESCRIBE_NO_RUNDLAUF = N_("No Rundlauf: its Paare, 4 Könige and 4 Ober count one by one.")
DESCRIBE_EIGHT = N_("Eight of a rank: {values}.")
DESCRIBE_DECK = N_("{deck} cards; {three} each at a 3-table, {dabb} in the Dabb.")
DESCRIBE_SCALING = N_("Trick points: {steps}.")
DESCRIBE_SCALING_STEP = N_("each eye beyond {at} counts {times}×")
DESCRIBE_PENALTIES_BEFORE = N_(
    "Minus points ({values}) are entered per player and come off the eyes before they count."
)
DESCRIBE_PENALTIES_AFTER = N_(
    "Minus points ({values}) are entered per player and come off the game's points."
)
DESCRIBE_ROUNDS_NO_PAIRS = N_(
    "{rounds} rounds; games per round: {three} at 3-tables, {four_sitout} at 4-tables with a "
    "sitting-out dealer; no pair tables."
)
DESCRIBE_ROUNDS = N_(
    "{rounds} rounds; games per round: {three} at 3-tables, {pairs} at pair tables, "
    "{four_sitout} at 4-tables with a sitting-out dealer."
)
DESCRIBE_TIES = N_("Ties: {order}, otherwise a shared place.")
DESCRIBE_TIES_SHARED = N_("Ties: a shared place.")
TIE_BREAK_THEN = N_(", then ")
TIE_BREAK_DECLARER_WINS = N_("more games won as declarer")
TIE_BREAK_BEST_ROUND = N_("the best single round")

# --- the meld table, row by row (RuleSet.describe_melds) ----------------------------------------
MELD_POINTS_TRUMP = N_("{plain} / in trump {trump}")
MELD_POINTS_ONLY_TRUMP = N_("{trump} in trump")
MELD_POINTS_FOUR_EIGHT = N_("four {four} / all eight {eight}")
MELD_POINTS_BINOKEL = N_("{one} / double {two}")
MELD_POINTS_RUNDLAUF = N_("{value} / with a Familie {with_familie} + the Familie")
MELD_NAME_BINOKEL = N_("Binokel (Schellen-U + Schippen-O)")
MELD_NAME_RUNDLAUF = N_("Rundlauf (a Paar in every suit)")
# The names of the suit melds of the presets' tables, by key (other keys are shown as they are).
SUIT_MELD_NAMES = {
    "paar": N_("Pair"),
    "doppelpaar": N_("Double pair"),
    "familie": N_("Family"),
    "doppelfamilie": N_("Double family"),
    "familie_doppelpaar": N_("Family with a double pair"),
    "luxusfamilie": N_("Luxury family"),
    "doppelluxusfamilie": N_("Double luxury family"),
    "luxusfamilie_doppelpaar": N_("Luxury family with a double pair"),
    "luxusfamilie_doppelfamilie": N_("Luxury family with a double family"),
    "diss": N_("Trump seven (Diss)"),
}
RANK_NAMES = {
    "A": N_("Aces"),
    "10": N_("Tens"),
    "K": N_("Kings"),
    "O": N_("Queens (Ober)"),
    "U": N_("Jacks (Unter)"),
    "7": N_("Sevens"),
}

# --- the result file (python -m scoring check-result) ------------------------------------------
RESULT_FILE_UNREADABLE = N_("The file cannot be read ({detail}).")
RESULT_NOT_THIS_FORMAT = N_("This is no {format} file.")
RESULT_VERSION_TOO_NEW = N_(
    "The file is version {version} of the format; this program reads versions up to {known} "
    "(the same major version). Please use a newer program."
)
RESULT_SCHEMA = N_("Does not match the format: {detail}")
RESULT_PLAYER_TWICE = N_("Start number {number} is listed twice.")
RESULT_SEATS = N_("Round {round}, table {table}: this kind of table has {count} places.")
RESULT_UNKNOWN_PLAYER = N_("Round {round}, table {table}: start number {number} is no player.")
RESULT_TABLE_UNREADABLE = N_("Round {round}, table {table}: the sheet cannot be read ({detail}).")
RESULT_GAME_INVALID = N_("Round {round}, table {table}, game {game} is not a valid game: {detail}")
RESULT_GAME_POINTS = N_(
    "Round {round}, table {table}, game {game}: points {expected} expected, {written} written."
)
RESULT_GAME_WON = N_("Round {round}, table {table}, game {game}: won or lost is written wrongly.")
RESULT_GAME_MISSING = N_(
    "Round {round}, table {table}: game {game} is missing from a confirmed sheet."
)
RESULT_TABLE_TOTALS = N_(
    "Round {round}, table {table}: totals {expected} expected, {written} written."
)
RESULT_STANDING_MISSING = N_("Start number {number} is missing from the standings.")
RESULT_STANDING_EXTRA = N_("Start number {number} does not belong in the standings.")
RESULT_STANDING_ROUNDS = N_(
    "Standings, start number {number}: rounds {expected} expected, {written} written."
)
RESULT_STANDING_TOTAL = N_(
    "Standings, start number {number}: total {expected} expected, {written} written."
)
RESULT_STANDING_TIE_BREAK = N_(
    "Standings, start number {number}: tie-break {name} {expected} expected, {written} written."
)
RESULT_STANDING_RANK = N_(
    "Standings, start number {number}: place {expected} expected, {written} written."
)
RESULT_DONATION = N_(
    "Donations, start number {number}: lost games / cents {expected} expected, {written} written."
)
RESULT_DONATION_MISSING = N_("Donations: start number {number} owes {cents} cents, not written.")
RESULT_MONEY_TOTAL = N_("The evening's total: {expected} cents expected, {written} written.")
RESULT_OK = N_(
    "The file checks out. Scored again: rounds {rounds} · tables {tables} · games {games}; "
    "added up again: standings {standings} · players {players}."
)
RESULT_OK_MONEY = N_("The donations and the evening's total add up too.")
RESULT_NOT_OK = N_("The file does not check out ({count} differences). The first:")

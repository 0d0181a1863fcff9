"""One number reader for the engine: a value reads the same in every notation a model may use.

``fold_numbers`` first makes the text honest: format and bidi characters go (so what is checked
is what is shown), every digit form (other scripts, full width, superscript) becomes ASCII,
circled and parenthesised numbers become ``(n)``, Roman (Ⅻ) and Suzhou (〢〤) numerals their
values, and markup inside a number (``**20**876``) goes. ``read_numbers`` then finds each
quantity:

* Arabic numbers with thousands separators (a comma, a full-width comma, or a thin, narrow
  no-break or plain space, each followed by exactly three digits), decimals and signs:
  ``2,398``, ``1，320``, ``1 320``, ``-0.7``, ``.5``;
* scale words: ``455百万``, ``4.55亿``, ``1.2万``, ``3 million``, ``2bn``;
* CJK numerals, simple, 大写 and traditional, with 万/亿/千/百, 两, 廿/卅/卌: ``一百二十``,
  ``壹仟伍佰``, ``三点五``; compound amounts mixing digits and units: ``4亿5500万``;
* percent and points: ``12%``, ``百分之十二``, ``两成``, ``三分之一``, ``3个百分点``;
* English number words: ``twelve percent``, ``one thousand three hundred and twenty million``,
  ``one point three billion``, ``a third``; Roman numerals where they cannot be letters
  (``XII stores``, never the word "I");
* multiples: ``翻倍``, ``doubled``, ``3倍``.
* amounts in words (``words``): ``八折`` / ``8.5折``, ``双位数`` / ``double-digit`` (a range),
  ``半数``, ``a dozen``, ``a score of``; in a link only a figure with a unit (``cut-18-percent``).

Each ``Quantity`` carries its value at scale and its precision (see ``Quantity.matches`` for
the rounding rule), so ``4.55亿`` and ``455百万`` are the same claim and ``455亿`` is not. A
year in a period label (``FY2024``, ``2024年``, ``2024Q3``; but ``1999 stores`` and
``2024家`` are values), a quarter or half number, list numbering (``1.``, ①②③ inline),
section and page numbers (``第3节``, ``section 4.2``) have a ``role`` other than ``value``:
they are labels, not claims (so is a footnote marker ``[^1]``). A well-formed citation is
lineage and is not read (``CITATION``).
"""

from ragspine.numbers.fold import fold_numbers
from ragspine.numbers.numerals import cjk_value, english_value, roman_value
from ragspine.numbers.quantity import Kind, Quantity, Role, precision_of
from ragspine.numbers.reader import CITATION, DOC, LOCATOR, direction_before, read_numbers

__all__ = [
    "CITATION",
    "DOC",
    "LOCATOR",
    "Kind",
    "Quantity",
    "Role",
    "cjk_value",
    "direction_before",
    "english_value",
    "fold_numbers",
    "precision_of",
    "read_numbers",
    "roman_value",
]

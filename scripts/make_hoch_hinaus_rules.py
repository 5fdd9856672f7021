"""Write models/hoch_hinaus/data/default.json: the default rules data of Hoch Hinaus!.

The real pairing of the 32 tiles' faces is not published. The default set pairs face i
(colour-major, numbers 1-4) with faces i+1 and i+6 (mod 16): every face occurs exactly
four times, no tile shows two equal faces, no two tiles are alike.
"""

import json
from pathlib import Path

COLOURS = [("orange", "O", "#f08a24"), ("pink", "P", "#ea5b9d"),
           ("green", "G", "#3fa34d"), ("purple", "V", "#7b4fa6")]


def main() -> None:
    faces = [f"{letter}{n}" for _, letter, _ in COLOURS for n in range(1, 5)]
    pairs = [(i, (i + 1) % 16) for i in range(16)] + [(i, (i + 6) % 16) for i in range(16)]
    tiles = [{"id": f"T{k + 1:02d}", "faces": [faces[a], faces[b]]}
             for k, (a, b) in enumerate(pairs)]
    data = {
        "name": "Tippi Toppi – Hoch Hinaus! (default set; real face pairing unpublished)",
        "columns": 3,
        "rows": 4,
        "colours": [{"name": n, "letter": letter, "rgb": rgb} for n, letter, rgb in COLOURS],
        "filler": {"name": "black", "letter": "K", "rgb": "#1b1b1b", "number": 0},
        "numbers": [1, 2, 3, 4],
        "tiles": tiles,
        "fillers": 10,
        "bonus_fillers": [2, 2, 3, 3],
        "hand_size": 3,
        "open_tasks": 4,
        "difficulty": {"first": 14, "normal": 16, "advanced": 18, "pros": 20,
                       "champions": 22},
        "purple_side_printed_fillers": ["A2", "C3"],
    }
    out = Path(__file__).resolve().parent.parent / "models/hoch_hinaus/data/default.json"
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(out)


if __name__ == "__main__":
    main()

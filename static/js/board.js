/*
 * The English-draughts board: an 8x8 grid with the 32 playing squares numbered as PDN numbers
 * them (1-4 Black's back row, 29-32 White's), men and crowned kings, and a flip control.
 *
 * Orientation: square s sits on row (s - 1) / 4 from Black's side and column
 * 2 * ((s - 1) % 4) + (row even ? 1 : 0) counted from Black's right, as games/rules/board.py
 * says. Drawn with Black at the top ("White's view"), square 1 is the top-left playing square
 * and White's double corner (28, 32) is at the bottom right. By default Black is drawn at the
 * bottom: the board is turned through 180 degrees, so square 1 is at the bottom right and
 * Black's double corner (1, 5) is again on the right of the player sitting nearest.
 *
 * Usage (a native ES module: no dependencies, no build step):
 *   const board = new DraughtsBoard(element, {interactive: true, onSquareClick: (square) => ...});
 *   board.setFen("B:W21,22,K30:B1,2");
 *   board.setMarks({starts: [9, 10], landings: [13], path: [9]});
 *   board.flip();
 *
 * An interactive board is one stop in the tab order (a roving tabindex): the arrow keys move
 * between the playing squares (left and right along the row, up and down to the next row,
 * zigzagging between two columns), Enter or Space presses the square focused.
 */
var SVG_NS = "http://www.w3.org/2000/svg";

function squareRow(square) {
  return Math.floor((square - 1) / 4);
}

function squareColumn(square) {
  var row = squareRow(square);
  return 2 * ((square - 1) % 4) + (row % 2 === 0 ? 1 : 0);
}

/* Parses a PDN FEN ("B:W21,22,K30:B1-4") into {side, pieces: {square: {color, king}}}. */
function parseFen(fen) {
  var result = { side: null, pieces: {} };
  if (!fen) {
    return result;
  }
  var text = String(fen).trim().replace(/\.$/, "");
  var fields = text.split(":");
  var first = fields[0].trim().toUpperCase();
  result.side = first === "W" ? "white" : first === "B" ? "black" : null;
  for (var i = 1; i < fields.length; i += 1) {
    var field = fields[i].trim();
    if (!field) {
      continue;
    }
    var colorLetter = field.charAt(0).toUpperCase();
    if (colorLetter !== "W" && colorLetter !== "B") {
      continue;
    }
    var color = colorLetter === "W" ? "white" : "black";
    field.slice(1).split(",").forEach(function (item) {
      item = item.trim();
      if (!item) {
        return;
      }
      var king = false;
      if (item.charAt(0).toUpperCase() === "K") {
        king = true;
        item = item.slice(1);
      }
      var range = item.split("-");
      var from = parseInt(range[0], 10);
      var to = range.length > 1 ? parseInt(range[1], 10) : from;
      for (var s = from; s <= to; s += 1) {
        if (s >= 1 && s <= 32) {
          result.pieces[s] = { color: color, king: king };
        }
      }
    });
  }
  return result;
}

export function DraughtsBoard(container, options) {
  options = options || {};
  this.container = container;
  this.interactive = Boolean(options.interactive);
  this.onSquareClick = options.onSquareClick || null;
  this.flipped = Boolean(options.flipped); // false: Black at the bottom (the default)
  this.position = { side: null, pieces: {} };
  this.marks = { starts: [], landings: [], path: [], last: [] };
  this.cells = {};
  this.tabSquare = null; // the square in the tab order (interactive boards)
  this.build();
}

DraughtsBoard.parseFen = parseFen;
DraughtsBoard.squareRow = squareRow;
DraughtsBoard.squareColumn = squareColumn;

/* Returns the screen row and column (0-7 from the top left) of a square. */
DraughtsBoard.prototype.screenCell = function (square) {
  var row = squareRow(square);
  var column = squareColumn(square);
  if (this.flipped) {
    return { row: row, column: column }; // Black at the top
  }
  return { row: 7 - row, column: 7 - column }; // Black at the bottom
};

var boardCount = 0; // a page may show several boards: each summary has its own id

DraughtsBoard.prototype.build = function () {
  var self = this;
  this.container.classList.add("draughts-board-wrap");
  this.container.innerHTML = "";
  var grid = document.createElement("div");
  grid.className = "draughts-board";
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", "Draughts board");
  grid.setAttribute("data-testid", "board");
  this.grid = grid;
  var rows = [];
  for (var r = 0; r < 8; r += 1) {
    var rowElement = document.createElement("div");
    rowElement.className = "board-row";
    rows.push(rowElement);
    grid.appendChild(rowElement);
  }
  var screen = [];
  for (var s = 1; s <= 32; s += 1) {
    var cell = this.screenCell(s);
    screen[cell.row * 8 + cell.column] = s;
  }
  for (var index = 0; index < 64; index += 1) {
    var square = screen[index];
    var element;
    if (square) {
      element = document.createElement(this.interactive ? "button" : "div");
      if (this.interactive) {
        element.type = "button";
      } else {
        element.setAttribute("role", "img");
      }
      element.className = "sq dark";
      element.setAttribute("data-square", String(square));
      element.setAttribute("data-testid", "square-" + square);
      var number = document.createElement("span");
      number.className = "sq-number";
      number.setAttribute("aria-hidden", "true");
      number.textContent = String(square);
      element.appendChild(number);
      this.cells[square] = element;
      if (this.interactive) {
        element.addEventListener("click", (function (sq) {
          return function (event) {
            event.stopPropagation();
            if (self.onSquareClick) {
              self.onSquareClick(sq);
            }
          };
        })(square));
      }
    } else {
      element = document.createElement("div");
      element.className = "sq light";
      element.setAttribute("aria-hidden", "true");
    }
    rows[Math.floor(index / 8)].appendChild(element);
  }
  if (this.interactive) {
    grid.addEventListener("keydown", function (event) {
      self.keyMove(event);
    });
    grid.addEventListener("focusin", function (event) {
      var target = event.target.closest ? event.target.closest("[data-square]") : null;
      if (target) {
        self.setTabSquare(parseInt(target.getAttribute("data-square"), 10));
      }
    });
    if (this.tabSquare === null) {
      this.tabSquare = screen.filter(Boolean)[0];
    }
  }
  this.container.appendChild(grid);
  var caption = document.createElement("p");
  caption.className = "board-caption";
  caption.setAttribute("data-testid", "board-orientation");
  this.caption = caption;
  this.container.appendChild(caption);
  // The whole position in one sentence for a screen reader (the squares say one piece each).
  var summary = document.createElement("p");
  summary.className = "visually-hidden";
  boardCount += 1;
  summary.id = "board-position-" + boardCount;
  summary.setAttribute("data-testid", "board-position");
  grid.setAttribute("aria-describedby", summary.id);
  this.summary = summary;
  this.container.appendChild(summary);
  this.render();
};

/* Returns the playing square drawn at a screen row and column, or null. */
DraughtsBoard.prototype.squareAt = function (row, column) {
  if (row < 0 || row > 7 || column < 0 || column > 7) {
    return null;
  }
  for (var s = 1; s <= 32; s += 1) {
    var cell = this.screenCell(s);
    if (cell.row === row && cell.column === column) {
      return s;
    }
  }
  return null;
};

/* Makes a square the board's one stop in the tab order. */
DraughtsBoard.prototype.setTabSquare = function (square) {
  this.tabSquare = square;
  for (var s = 1; s <= 32; s += 1) {
    if (this.cells[s]) {
      this.cells[s].setAttribute("tabindex", s === square ? "0" : "-1");
    }
  }
};

/* Moves the focus with the arrow keys (Home and End: the first and the last square drawn). */
DraughtsBoard.prototype.keyMove = function (event) {
  var target = event.target.closest ? event.target.closest("[data-square]") : null;
  if (!target || event.altKey || event.ctrlKey || event.metaKey) {
    return;
  }
  var cell = this.screenCell(parseInt(target.getAttribute("data-square"), 10));
  var next = null;
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    next = this.squareAt(cell.row, cell.column + (event.key === "ArrowLeft" ? -2 : 2));
  } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
    var row = cell.row + (event.key === "ArrowUp" ? -1 : 1);
    var side = cell.column % 2 === 0 ? 1 : -1;
    next = this.squareAt(row, cell.column + side) || this.squareAt(row, cell.column - side);
  } else if (event.key === "Home" || event.key === "End") {
    next = event.key === "Home" ? this.squareAt(0, 1) : this.squareAt(7, 6);
  } else {
    return;
  }
  event.preventDefault();
  if (next) {
    this.setTabSquare(next);
    this.cells[next].focus();
  }
};

DraughtsBoard.prototype.setFen = function (fen) {
  this.position = parseFen(fen);
  this.render();
};

DraughtsBoard.prototype.setMarks = function (marks) {
  marks = marks || {};
  this.marks = {
    starts: marks.starts || [],
    landings: marks.landings || [],
    path: marks.path || [],
    last: marks.last || [],
  };
  this.render();
};

DraughtsBoard.prototype.flip = function () {
  this.flipped = !this.flipped;
  this.build();
};

/* Returns the position in words: "Black men on 1, 2, 3; Black kings on 27. White men on 21, 22. " */
function positionWords(pieces) {
  return ["black", "white"].map(function (color) {
    var men = [];
    var kings = [];
    for (var s = 1; s <= 32; s += 1) {
      var piece = pieces[s];
      if (piece && piece.color === color) {
        (piece.king ? kings : men).push(s);
      }
    }
    var name = color.charAt(0).toUpperCase() + color.slice(1);
    var parts = [];
    if (men.length) {
      parts.push(name + " men on " + men.join(", "));
    }
    if (kings.length) {
      parts.push(name + " kings on " + kings.join(", "));
    }
    return parts.length ? parts.join("; ") + "." : "No " + color + " pieces.";
  }).join(" ");
}

function pieceLabel(piece) {
  return piece.color + " " + (piece.king ? "king" : "man");
}

DraughtsBoard.prototype.render = function () {
  for (var s = 1; s <= 32; s += 1) {
    var element = this.cells[s];
    if (!element) {
      continue;
    }
    var old = element.querySelector(".piece");
    if (old) {
      element.removeChild(old);
    }
    var piece = this.position.pieces[s];
    var label = "Square " + s;
    if (piece) {
      element.appendChild(this.pieceElement(piece));
      label += ", " + pieceLabel(piece);
    } else {
      label += ", empty";
    }
    element.setAttribute("aria-label", label);
    element.setAttribute("data-piece", piece ? (piece.color.charAt(0) + (piece.king ? "k" : "m")) : "");
    element.classList.toggle("is-start", this.marks.starts.indexOf(s) >= 0);
    element.classList.toggle("is-landing", this.marks.landings.indexOf(s) >= 0);
    element.classList.toggle("is-path", this.marks.path.indexOf(s) >= 0);
    element.classList.toggle("is-last", this.marks.last.indexOf(s) >= 0);
  }
  if (this.interactive && this.tabSquare !== null) {
    this.setTabSquare(this.tabSquare);
  }
  if (this.summary) {
    this.summary.textContent = positionWords(this.position.pieces);
  }
  if (this.caption) {
    this.caption.textContent = this.flipped
      ? "White at the bottom, Black at the top."
      : "Black at the bottom, White at the top.";
  }
};

DraughtsBoard.prototype.pieceElement = function (piece) {
  var svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", "piece piece-" + piece.color + (piece.king ? " piece-king" : ""));
  svg.setAttribute("aria-hidden", "true");
  var disc = document.createElementNS(SVG_NS, "circle");
  disc.setAttribute("cx", "50");
  disc.setAttribute("cy", "50");
  disc.setAttribute("r", "38");
  disc.setAttribute("class", "disc");
  svg.appendChild(disc);
  var ring = document.createElementNS(SVG_NS, "circle");
  ring.setAttribute("cx", "50");
  ring.setAttribute("cy", "50");
  ring.setAttribute("r", "28");
  ring.setAttribute("class", "ring");
  svg.appendChild(ring);
  if (piece.king) {
    var crown = document.createElementNS(SVG_NS, "path");
    crown.setAttribute("d", "M28 62 L24 36 L38 48 L50 30 L62 48 L76 36 L72 62 Z");
    crown.setAttribute("class", "crown");
    svg.appendChild(crown);
  }
  return svg;
};

/* Splits a PDN move ("15x24x31", "11-15") into its squares. */
DraughtsBoard.movePath = function (move) {
  return String(move)
    .split(/[-x]/)
    .map(function (part) {
      return parseInt(part, 10);
    })
    .filter(function (n) {
      return !isNaN(n);
    });
};

/* Builds the PDN of a clicked path: "-" for a step, "x" for jumps. */
DraughtsBoard.pathToPdn = function (path) {
  if (path.length < 2) {
    return String(path[0] || "");
  }
  var step = Math.abs(squareRow(path[1]) - squareRow(path[0])) === 1 && path.length === 2;
  return path.join(step ? "-" : "x");
};

/* Adds a "Flip board" button that turns the given boards. */
DraughtsBoard.flipButton = function (boards, onFlip) {
  var button = document.createElement("button");
  button.type = "button";
  button.className = "flip-board";
  button.textContent = "Flip board";
  button.setAttribute("data-testid", "flip-board");
  button.addEventListener("click", function () {
    boards.forEach(function (board) {
      board.flip();
    });
    if (onFlip) {
      onFlip();
    }
  });
  return button;
};

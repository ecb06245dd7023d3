"""profq from Python: open a profile with the profq SQL functions, run the canned reports.

The report files in queries/ are the one definition of every report; this module runs them as
they are, the way `profq <report>` does: it skips their sqlite3 dot-command lines (".load ..."),
binds the defaults their header declares ("-- option NAME=CHOICES (default VALUE): ...", see
docs/reports.md) and the caller's values, and refuses names and values the file does not
declare.

    import profq
    conn = profq.connect("profile.db")
    columns, rows = profq.run_report(conn, "top-kernels", by="short-name")
    frame = profq.report_frame(conn, "step-breakdown", run=1)       # needs pandas

Where things are found (the same layout in the repository and after `make install`):
  queries   $PROFQ_QUERIES, else ../queries beside this file (repository, or share/profq/)
  extension $PROFQ_EXTENSION, else EXTENSION below (set by `make install`), else
            ../build/profq beside this file (the repository after `make`)
"""

import math
import os
import re
import sqlite3
import urllib.parse

__all__ = ["connect", "find_extension", "queries_dir", "report_names", "report_options",
           "report_sql", "run_report", "report_frame", "ReportError"]

# `make install` writes the installed extension's path here (without the .so suffix).
EXTENSION = None

_HERE = os.path.dirname(os.path.abspath(__file__))
_OPTION = re.compile(r"^-- option ([A-Za-z0-9_-]+)=(.*?)(?: \(default (.*)\))?: (.*)$")
# Every report takes these besides its own options (docs/reports.md).
_GENERIC = {"run": ("<id>", None), "limit": ("<n>", None)}


class ReportError(ValueError):
    """A report name, option name or option value the report file does not declare."""


def queries_dir():
    """The folder holding the report files."""
    return os.environ.get("PROFQ_QUERIES") or os.path.join(os.path.dirname(_HERE), "queries")


def find_extension():
    """Path of the profq extension (without .so, as load_extension takes it), or None."""
    candidates = [os.environ.get("PROFQ_EXTENSION"), EXTENSION,
                  os.path.join(os.path.dirname(_HERE), "build", "profq")]
    for path in candidates:
        if path and (os.path.exists(path) or os.path.exists(path + ".so")):
            return path
    return None


def connect(path, extension=None, readonly=True):
    """Opens path (read-only by default) with the profq SQL functions loaded.

    Needs a Python whose sqlite3 module can load extensions (Debian's python3 can)."""
    ext = extension or find_extension()
    if ext is None:
        raise RuntimeError("profq extension not found: build it with `make`, install it with "
                           "`make install`, or set PROFQ_EXTENSION")
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    uri = "file:%s%s" % (urllib.parse.quote(path), "?mode=ro" if readonly else "")
    conn = sqlite3.connect(uri, uri=True)
    conn.enable_load_extension(True)
    try:
        conn.load_extension(ext)
    finally:
        conn.enable_load_extension(False)
    # A profile is data (README, Threat model): its views and triggers call only innocuous
    # functions; defensive mode and no triggers where this Python can say so (3.12+).
    conn.execute("PRAGMA trusted_schema = OFF")
    if hasattr(conn, "setconfig"):
        conn.setconfig(sqlite3.SQLITE_DBCONFIG_DEFENSIVE, True)
        conn.setconfig(sqlite3.SQLITE_DBCONFIG_ENABLE_TRIGGER, False)
    return conn


def report_names():
    """The canned reports, sorted."""
    return sorted(f[:-4] for f in os.listdir(queries_dir()) if f.endswith(".sql"))


def _read(name_or_path):
    path = name_or_path if name_or_path.endswith(".sql") else \
        os.path.join(queries_dir(), name_or_path + ".sql")
    if not os.path.exists(path):
        raise ReportError("unknown report '%s' (reports: %s)"
                          % (name_or_path, ", ".join(report_names())))
    with open(path, encoding="utf-8") as f:
        return f.read()


def report_options(name_or_path):
    """{name: (choices, default)} for every option the report takes, in the order `profq help`
    lists them: its declared ones, then the generic run and limit. choices is a tuple of allowed
    values or a "<placeholder>" string."""
    options = {}
    for line in _read(name_or_path).splitlines():
        m = _OPTION.match(line)
        if m:
            choices = m.group(2)
            if not choices.startswith("<"):
                choices = tuple(choices.split("|"))
            options[m.group(1)] = (choices, m.group(3))
    options.update(_GENERIC)
    return options


def report_sql(name_or_path):
    """The report's SQL without sqlite3 dot-command lines."""
    return "".join(line for line in _read(name_or_path).splitlines(keepends=True)
                   if not line.startswith("."))


def _number(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return float(value)


def _allowed(choices, text):
    """Whether text is a value of an option with these choices, as profq checks it."""
    if isinstance(choices, tuple):
        return text in choices
    if choices == "<text>":
        return text != ""
    if choices in ("<id>", "<n>"):  # a run id (>= 1) or a count (>= 0): digits only
        return text.isascii() and text.isdigit() and int(text) >= (1 if choices == "<id>" else 0)
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


_WANTED = {"<id>": "a run id (a positive integer)", "<n>": "a non-negative integer",
           "<text>": "non-empty text"}


def _option_key(options, key):
    """The declared name key stands for ('-' and '_' alike), or None."""
    for name in options:
        if name.replace("_", "-") == key.replace("_", "-"):
            return name
    return None


def _bindings(label, options, params):
    values = {}
    for key, (choices, default) in options.items():
        if default is not None:
            values[key] = default
    for given, value in params.items():
        key = _option_key(options, given)
        if key is None:
            raise ReportError("%s: unknown option '%s' (options: %s)"
                              % (label, given, ", ".join(options)))
        if value is not None:
            choices = options[key][0]
            text = str(value)
            if not _allowed(choices, text):
                wanted = "|".join(choices) if isinstance(choices, tuple) else \
                    _WANTED.get(choices, "a number (%s)" % choices)
                raise ReportError("%s: --%s must be %s, not '%s'" % (label, key, wanted, text))
        values[key] = value
    # Typed as profq binds them: integers and reals as numbers, anything else as text.
    bound = {}
    for key, value in values.items():
        if isinstance(value, str):
            try:
                value = _number(value)
            except ValueError:
                pass
        bound[key.replace("-", "_")] = value
    return bound


def _check_run(conn, label, run):
    runs = [r[0] for r in conn.execute("SELECT id FROM runs ORDER BY id")]
    if int(run) not in runs:
        db = conn.execute("PRAGMA database_list").fetchone()[2]
        raise ReportError("%s: no run %s in %s (runs: %s)" % (
            label, run, os.path.basename(db) or "the database",
            ", ".join(map(str, runs)) or "none"))


def run_report(conn, name, **params):
    """Runs a canned report (a name from queries/, or a path to a .sql file) on conn with the
    declared defaults and params (Python names: gap_ms for --gap-ms). Returns (columns, rows)
    of the report's last statement. Unknown options or values, and a run the database does not
    have, raise ReportError with the message profq gives (without its "profq: ")."""
    options = report_options(name)
    label = os.path.basename(name)[:-4] if name.endswith(".sql") else name
    bound = _bindings(label, options, params)
    if bound.get("run") is not None:
        _check_run(conn, label, bound["run"])
    columns, rows = [], []
    for statement in _statements(report_sql(name)):
        cur = conn.execute(statement, {k: bound.get(k) for k in _parameters(statement)})
        if cur.description is not None:
            columns = [d[0] for d in cur.description]
            rows = cur.fetchall()
    return columns, rows


def report_frame(conn, name, **params):
    """run_report as a pandas DataFrame."""
    import pandas  # only this function needs it
    columns, rows = run_report(conn, name, **params)
    return pandas.DataFrame.from_records(rows, columns=columns)


def _parameters(statement):
    return set(m.group(1) for m in re.finditer(r"[:@$]([A-Za-z_][A-Za-z0-9_]*)",
                                               _strip_literals(statement)))


def _strip_literals(sql):
    """sql with comments and string literals blanked, so ':x' inside them is not a parameter."""
    return re.sub(r"--[^\n]*|'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"", " ", sql)


def _statements(sql):
    """Splits sql into complete statements, as sqlite3.complete_statement sees them."""
    statement = ""
    for line in sql.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            yield statement
            statement = ""
    if statement.strip() and _strip_literals(statement).strip():
        yield statement

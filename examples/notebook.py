# %% [markdown]
# # A profq profile in pandas and matplotlib
#
# The canned reports (queries/*.sql, the same files `profq <report>` runs) into DataFrames, and three
# figures per run: the PyTorch step-time breakdown per step, the top kernels, and GPU utilization
# over time. As a script: `python3 examples/notebook.py PROFILE.db OUTDIR` saves the figures as PNGs
# (and each DataFrame as CSV) into OUTDIR; in Jupyter, set PROFILE and OUTDIR in the first cell.

# %%
import os
import sys

PROFILE, OUTDIR = "profile.db", "figures"
if "ipykernel" not in sys.modules:  # run as a script: arguments, and no display
    if len(sys.argv) != 3:
        sys.exit("usage: notebook.py PROFILE.db OUTDIR")
    PROFILE, OUTDIR = sys.argv[1:3]
    import matplotlib
    matplotlib.use("Agg")

# profq.py sits in python/ of the repository, or share/profq/python after `make install`;
# PROFQ_PYTHON names another folder. It finds the extension and queries/ itself (see its doc).
# In Jupyter there is no __file__: the working directory is the notebook's folder.
HERE = os.path.dirname(os.path.abspath(globals().get("__file__", "notebook.py")))
for d in (os.environ.get("PROFQ_PYTHON"), os.path.join(HERE, "..", "python"),
          os.path.join(HERE, "..", "share", "profq", "python"), "/usr/local/share/profq/python"):
    if d and os.path.exists(os.path.join(d, "profq.py")):
        sys.path.insert(0, d)
        break
import matplotlib.pyplot as plt
import profq

os.makedirs(OUTDIR, exist_ok=True)
conn = profq.connect(PROFILE)
runs = [r[0] for r in conn.execute("SELECT id FROM runs ORDER BY id")]
print("runs:", runs)


# %%
def report(name, run, **options):
    """A canned report for one run as a DataFrame, also saved as OUTDIR/run<ID>-<name>.csv."""
    frame = profq.report_frame(conn, name, run=run, **options)
    frame.to_csv(os.path.join(OUTDIR, "run%d-%s.csv" % (run, name)), index=False)
    return frame


def save(fig, run, name):
    fig.tight_layout()
    fig.savefig(os.path.join(OUTDIR, "run%d-%s.png" % (run, name)), dpi=100)


# %% [markdown]
# ## Step-time breakdown per step (`step-breakdown`)

# %%
PARTS = ["kernel_ns", "memcpy_ns", "memset_ns", "communication_ns", "runtime_ns", "dataloader_ns",
         "cpu_exec_ns", "other_ns"]
for run in runs:
    steps = report("step-breakdown", run)
    steps = steps[steps["step"].astype(str) != "average"]
    if steps.empty:
        print("run %d: no ProfilerStep ranges" % run)
        continue
    ms = steps.set_index(steps["step"].astype(str))[PARTS] / 1e6
    ms.columns = [c[:-3] for c in PARTS]
    ax = ms.plot.bar(stacked=True, figsize=(10, 5), rot=0, colormap="tab10")
    ax.set(title="Run %d: step time breakdown" % run, xlabel="step", ylabel="time (ms)")
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1))
    save(ax.figure, run, "step-breakdown")

# %% [markdown]
# ## Top kernels by total time (`top-kernels --by short-name`)

# %%
for run in runs:
    kernels = report("top-kernels", run, by="short-name", limit=15)
    if kernels.empty:
        print("run %d: no kernels" % run)
        continue
    names = [n if len(n) <= 48 else n[:45] + "..." for n in kernels["name"]]
    fig, ax = plt.subplots(figsize=(10, 6))
    ax.barh(names[::-1], kernels["total_ns"][::-1] / 1e6, color="tab:blue")
    ax.set(title="Run %d: top kernels by total time" % run, xlabel="total time (ms)")
    for y, (ms, pct) in enumerate(zip(kernels["total_ns"][::-1] / 1e6, kernels["time_pct"][::-1])):
        ax.annotate(" %.1f %%" % pct, (ms, y), va="center", fontsize=8)
    save(fig, run, "top-kernels")

# %% [markdown]
# ## GPU utilization over time (`gpu-util-timeline`)

# %%
for run in runs:
    util = report("gpu-util-timeline", run)
    if util.empty:
        print("run %d: no GPU activity" % run)
        continue
    t0 = util["start_ns"].min()
    fig, ax = plt.subplots(figsize=(10, 4))
    for device, rows in util.groupby("device", dropna=False):
        mid = ((rows["start_ns"] + rows["end_ns"]) / 2 - t0) / 1e9
        ax.plot(mid, rows["util_pct"], label="GPU %s" % device, drawstyle="steps-mid")
    ax.set(title="Run %d: GPU utilization" % run, xlabel="time since the first GPU operation (s)",
           ylabel="busy (%)", ylim=(0, 105))
    ax.legend()
    save(fig, run, "gpu-utilization")

# %%
print("figures in", OUTDIR + ":", ", ".join(sorted(f for f in os.listdir(OUTDIR) if f.endswith(".png"))))

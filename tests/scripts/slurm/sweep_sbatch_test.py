#!/usr/bin/env python3
"""scripts/slurm/sweep.sbatch on a real, private, single-node Slurm: starts
munged, slurmctld and slurmd on localhost (own config, ports, sockets and
spool in a temp dir), submits an emitted sweep through scripts/slurm/submit.sh
under a MaxArraySize of 4 (6 points: two arrays of 3), merges it and checks
the rows equal a local sweep's. Needs root (Slurm's daemons) and the
Debian packages slurmctld slurmd slurm-client munge (scripts/setup.sh); exits
77 (skipped) without them. Usage: sweep_sbatch_test.py PTO_SIM SOURCE_DIR"""
import csv
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

pto_sim, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
need = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo"]
missing = [n for n in need if not shutil.which(n) and not os.path.exists(f"/usr/sbin/{n}")]
if missing or os.geteuid() != 0:
    print(f"skipped: {'not root' if os.geteuid() else 'missing ' + ' '.join(missing)}")
    sys.exit(77)
try:  # the daemons meet at "localhost": a machine where it does not resolve cannot host them
    socket.gethostbyname("localhost")
except OSError as e:
    print(f"skipped: localhost does not resolve here ({e})")
    sys.exit(77)
which = lambda n: shutil.which(n) or f"/usr/sbin/{n}"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


tmp = tempfile.mkdtemp(prefix="ptosim-slurm-")
for d in ("state", "spool", "log", "munge", "key"):
    os.makedirs(os.path.join(tmp, d), mode=0o700)
# munged wants its socket's folder searchable by all, its key private.
os.chmod(tmp, 0o755)
os.chmod(os.path.join(tmp, "munge"), 0o755)
key = os.path.join(tmp, "key", "munge.key")
with open(key, "wb") as f:
    f.write(os.urandom(1024))
os.chmod(key, 0o600)
sock = os.path.join(tmp, "munge", "sock")
conf = os.path.join(tmp, "slurm.conf")
with open(conf, "w") as f:
    f.write(f"""ClusterName=ptosim{os.getpid()}
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={sock}
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation={tmp}/state
SlurmdSpoolDir={tmp}/spool
SlurmctldPidFile={tmp}/ctld.pid
SlurmdPidFile={tmp}/d.pid
SlurmctldLogFile={tmp}/log/ctld.log
SlurmdLogFile={tmp}/log/d.log
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
MpiDefault=none
MaxArraySize=4
JobAcctGatherType=jobacct_gather/none
NodeName=localhost CPUs={os.cpu_count() or 2} State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
""")
env = dict(os.environ, SLURM_CONF=conf, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
daemons = []
failures = []


def check(name, cond, detail=""):
    if not cond:
        failures.append(name)
        print(f"FAIL {name}: {str(detail)[:2000]}")


try:
    daemons.append(subprocess.Popen([which("munged"), "-F", f"--socket={sock}", f"--key-file={key}",
                                     f"--pid-file={tmp}/munge/pid", f"--log-file={tmp}/munge/log",
                                     f"--seed-file={tmp}/munge/seed"], env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    time.sleep(0.5)
    daemons.append(subprocess.Popen([which("slurmctld"), "-D", "-c", "-f", conf], env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    daemons.append(subprocess.Popen([which("slurmd"), "-D", "-N", "localhost", "-f", conf], env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    deadline = time.time() + 60
    up = False
    while time.time() < deadline and not up:
        p = subprocess.run([which("sinfo"), "-h", "-o", "%t"], env=env, capture_output=True, text=True)
        up = p.returncode == 0 and p.stdout.strip() in ("idle", "mix", "alloc")
        time.sleep(0.5)
    check("slurm up", up, open(f"{tmp}/log/ctld.log").read()[-1500:] if os.path.exists(f"{tmp}/log/ctld.log") else "")
    if not up:
        raise SystemExit(1)
    prog = os.path.join(src, "workloads", "matmul_tiled.pto")
    axes = ["-D", "TM=16,32", "-D", "TN=16..64:x2"]
    jobs = os.path.join(tmp, "jobs.txt")
    subprocess.run([pto_sim, "sweep", prog, *axes, "--emit-jobs", jobs], env=env, check=True, capture_output=True)
    n = len(open(jobs).read().splitlines())
    p = subprocess.run(["bash", os.path.join(src, "scripts", "slurm", "submit.sh"), jobs, f"--chdir={tmp}"], env=env,
                       capture_output=True, text=True)
    ids = [l.split()[2].rstrip(":") for l in p.stdout.splitlines() if l.startswith("submitted array ")]
    check("submit.sh: two arrays under MaxArraySize 4", p.returncode == 0 and len(ids) == 2, (p.stdout, p.stderr))
    deadline = time.time() + (180 if ids else 0)
    while time.time() < deadline:
        q = subprocess.run([which("squeue"), "-h", "-j", ",".join(ids)], env=env, capture_output=True, text=True)
        if q.returncode == 0 and not q.stdout.strip():
            break
        time.sleep(0.5)
    merged, local = os.path.join(tmp, "merged.csv"), os.path.join(tmp, "local.csv")
    m = subprocess.run([pto_sim, "sweep", "--merge", jobs + ".d", "-o", merged], env=env, capture_output=True, text=True)
    check("merge of the array job", m.returncode == 0 and f"{n} of {n} points merged, 0 failed" in m.stderr, m.stderr)
    subprocess.run([pto_sim, "sweep", prog, *axes, "-o", local], env=env, capture_output=True)
    a = {r["point"]: r for r in csv.DictReader(open(merged))} if os.path.exists(merged) else {}
    b = {r["point"]: r for r in csv.DictReader(open(local))}
    check("the array job's rows are the local sweep's", set(a) == set(b) and len(a) == 6 and
          all(a[k][c] == b[k][c] for k in a for c in a[k] if c != "wall_seconds"), (sorted(a), sorted(b)))
finally:
    for d in reversed(daemons):
        d.terminate()
    for d in reversed(daemons):
        try:
            d.wait(timeout=20)
        except subprocess.TimeoutExpired:
            d.kill()
            d.wait()
    shutil.rmtree(tmp, ignore_errors=True)
print(f"{4 - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)

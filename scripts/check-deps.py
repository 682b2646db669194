#!/usr/bin/env python3
"""Proves that scripts/install-deps.sh names every Debian package the build needs.

A green build on a machine where someone once installed a package by hand proves nothing: the
package may be missing from the install script, and a fresh machine then fails at configure time.
This check looks at what the build really uses and asks where each file came from:

1. It configures the project (each CMake preset given, in scratch build folders) under strace and
   collects every file the configure step opened or executed.
2. It collects every shared library the built executables load: `ldd` on every ELF executable of
   the build folder, plus the libraries `rnnprof --version` opens at run time (Qt plugins).
3. It maps each file to the Debian package that installed it (the dpkg database that `dpkg -S`
   reads; /usr-merged paths are tried both ways).
4. It fails, naming the packages and a file of each, when a package is neither in a fresh machine's
   base set (scripts/debian12-base-packages.txt) nor in the Depends/Pre-Depends closure (not
   Recommends: install-deps.sh installs without them) of the packages install-deps.sh names.

Files no package owns (the CUDA toolkit under /usr/local/cuda, the source and build folders,
/proc, caches) are not Debian dependencies and are left out; others are listed as a warning.
No network is used. Exit status: 0 every package accounted for, 1 packages missing, 2 usage.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DPKG_INFO = "/var/lib/dpkg/info"
# Opened files that no Debian package is expected to own.
NOT_PACKAGED = ("/proc/", "/sys/", "/dev/", "/tmp/", "/run/", "/var/", "/usr/local/cuda", "/etc/ld.so.cache",
                "/usr/lib/locale/locale-archive")


def read_list_file(path):
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def install_deps_packages(script):
    out = subprocess.run(["bash", script, "--list"], check=True, capture_output=True, text=True).stdout
    return [p for p in out.split() if p]


def file_owners():
    """Path -> package, from the database `dpkg -S` searches (one .list file per package)."""
    owners = {}
    for listing in glob.glob(os.path.join(DPKG_INFO, "*.list")):
        package = os.path.basename(listing)[:-len(".list")].split(":")[0]
        with open(listing, encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                owners.setdefault(line.rstrip("\n"), package)
    return owners


def merged_usr_variants(path):
    """Debian 12 is /usr-merged: dpkg may record /lib/x.so for a file opened as /usr/lib/x.so."""
    candidates = [path, os.path.realpath(path)]
    for p in list(candidates):
        for short in ("/lib", "/lib64", "/bin", "/sbin"):
            if p.startswith(short + "/"):
                candidates.append("/usr" + p)
            if p.startswith("/usr" + short + "/"):
                candidates.append(p[len("/usr"):])
    return candidates


def owner_of(path, owners):
    for candidate in merged_usr_variants(path):
        if candidate in owners:
            return owners[candidate]
    return None


def installed_packages():
    """Installed package -> (dependency groups, provided names), from dpkg's status database."""
    fmt = "${Package}\t${db:Status-Status}\t${Depends}\t${Pre-Depends}\t${Provides}\n"
    out = subprocess.run(["dpkg-query", "-W", "-f", fmt], check=True, capture_output=True, text=True).stdout
    packages, providers = {}, {}
    for line in out.splitlines():
        name, status, depends, pre_depends, provides = (line.split("\t") + [""] * 5)[:5]
        if status != "installed":
            continue
        groups = [g for g in (depends + "," + pre_depends).split(",") if g.strip()]
        packages[name] = [[bare_name(alt) for alt in g.split("|")] for g in groups]
        for provided in provides.split(","):
            if provided.strip():
                providers.setdefault(bare_name(provided), set()).add(name)
    return packages, providers


def bare_name(relation):
    """'libc6 (>= 2.34)' or 'python3:any' -> 'libc6', 'python3'."""
    return re.split(r"[\s(:\[]", relation.strip(), maxsplit=1)[0]


def depends_closure(roots, packages, providers):
    """Every package apt installs for `roots` without Recommends. Of alternatives 'a | b' apt takes
    the first, so only the first is followed (a virtual name: its installed providers)."""
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for group in packages.get(name, []):
            first = group[0]
            if first in packages:
                todo.append(first)
            else:
                todo.extend(providers.get(first, ()))
    return seen


def pkg_config_modules(execve_line):
    """The module names of a traced `pkg-config ... --exists xkbcommon` call ('glib-2.0>=2.56' -> 'glib-2.0')."""
    args = re.findall(r'"([^"]*)"', execve_line.split("[", 1)[-1].split("]", 1)[0])[1:]
    return {re.split(r"[\s<>=!]", a, maxsplit=1)[0] for a in args if a and not a.startswith("-")}


def is_asked_pc(path, modules):
    """Whether pkg-config opened `path` for one of `modules`. A module that is not installed makes
    pkg-config read every .pc file on the machine (to suggest others): those say what this machine
    happens to have (udev.pc after a package was installed with its Recommends), not what the build
    uses. Files a found module's .pc requires belong to packages its -dev package depends on."""
    if not path.endswith(".pc"):
        return True
    stem = os.path.basename(path)[:-len(".pc")]
    return stem.removesuffix("-uninstalled") in modules


def traced_files(command, env=None, cwd=None):
    """Files `command` opened or executed successfully (strace -f -z), and its exit status."""
    with tempfile.NamedTemporaryFile(prefix="check-deps-", suffix=".strace", delete=False) as log:
        log_path = log.name
    try:
        result = subprocess.run(["strace", "-f", "-z", "-qq", "-e", "trace=open,openat,execve", "-o", log_path]
                                + command, env=env, cwd=cwd, capture_output=True, text=True)
        files = set()
        asked = {}  # pid of a pkg-config process -> the modules it was asked about
        with open(log_path, encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                m = re.search(r'(?:openat\(\w+, |open\(|execve\()"([^"]+)"', line)
                if not m:
                    continue
                pid = line.split(" ", 1)[0]
                if " execve(" in line and os.path.basename(m.group(1)) in ("pkg-config", "pkgconf"):
                    asked[pid] = pkg_config_modules(line)
                elif pid in asked and not is_asked_pc(m.group(1), asked[pid]):
                    continue
                files.add(os.path.normpath(os.path.join(cwd or os.getcwd(), m.group(1))))
        return files, result
    finally:
        os.unlink(log_path)


def configure_files(preset):
    """Configures `preset` into a scratch folder under strace; returns the files it opened."""
    scratch = tempfile.mkdtemp(prefix="check-deps-configure-")
    try:
        files, result = traced_files(["cmake", "--preset", preset, "-B", scratch], cwd=ROOT)
        if result.returncode != 0:
            sys.stdout.write(result.stdout[-4000:] + result.stderr[-4000:])
            print(f"check-deps: configuring preset '{preset}' failed (exit {result.returncode})")
        return files, result.returncode == 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def is_elf_executable(path):
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        return False
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def loaded_libraries(build):
    """Shared libraries of every ELF executable under `build` (ldd), plus what rnnprof opens."""
    executables = [os.path.join(d, f) for d, _, fs in os.walk(build) for f in fs
                   if "CMakeFiles" not in d and is_elf_executable(os.path.join(d, f))]
    libraries = set()
    for exe in executables:
        out = subprocess.run(["ldd", exe], capture_output=True, text=True).stdout
        libraries.update(m.group(1) for m in re.finditer(r"=> (/\S+)", out))
        libraries.update(m.group(1) for m in re.finditer(r"^\s*(/\S+) \(", out, re.M))
    app = os.path.join(build, "rnnprof")
    if os.path.exists(app):
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        opened, _ = traced_files([app, "--version"], env=env)
        libraries.update(f for f in opened if ".so" in os.path.basename(f))
    return executables, libraries


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", help="a build folder whose executables are checked (ldd)")
    parser.add_argument("--preset", action="append", default=[],
                        help="a CMake configure preset to trace (repeatable; default: release)")
    parser.add_argument("--install-script", default=os.path.join(ROOT, "scripts", "install-deps.sh"))
    parser.add_argument("--base", default=os.path.join(ROOT, "scripts", "debian12-base-packages.txt"))
    args = parser.parse_args()
    for tool in ("strace", "ldd", "dpkg-query", "cmake"):
        if shutil.which(tool) is None:
            print(f"check-deps: '{tool}' not found (scripts/install-deps.sh installs it)", file=sys.stderr)
            return 2
    if args.build and not os.path.isdir(args.build):
        print(f"check-deps: --build {args.build}: no such folder", file=sys.stderr)
        return 2

    base = set(read_list_file(args.base))
    named = install_deps_packages(args.install_script)
    packages, providers = installed_packages()
    not_installed = [p for p in named if p not in packages]
    allowed = base | depends_closure(named, packages, providers)

    used = {}  # file -> why it was looked at
    configured = True
    for preset in args.preset or ["release"]:
        files, ok = configure_files(preset)
        configured &= ok
        used.update({f: f"configure ({preset})" for f in files})
    if args.build:
        executables, libraries = loaded_libraries(os.path.abspath(args.build))
        used.update({f: "loaded by the executables" for f in libraries})
    else:
        executables = []

    owners = file_owners()
    needed, unowned = {}, []
    skip = (ROOT + "/", os.path.expanduser("~") + "/")
    for path in sorted(used):
        if os.path.isdir(path) or path.startswith(skip) or path.startswith(NOT_PACKAGED):
            continue
        package = owner_of(path, owners)
        if package is None:
            if os.path.exists(path):
                unowned.append(path)
            continue
        needed.setdefault(package, (path, used[path]))

    missing = {p: why for p, why in needed.items() if p not in allowed}
    print(f"check-deps: {len(used)} files opened ({len(executables)} executables checked), "
          f"{len(needed)} Debian packages used; install-deps.sh names {len(named)} "
          f"(closure {len(allowed - base)} beyond the {len(base)} base packages)")
    for path in unowned[:10]:
        print(f"check-deps: warning: {path} belongs to no Debian package")
    status = 0
    if not_installed:
        print("check-deps: install-deps.sh names packages that are not installed here: " + " ".join(not_installed))
        status = 1
    if missing:
        print(f"check-deps: FAILED: {len(missing)} package(s) used by the build are neither in a fresh machine's "
              "base set nor installed by scripts/install-deps.sh (add them there):")
        for package, (path, why) in sorted(missing.items()):
            print(f"  {package:28s} {path}  [{why}]")
        status = 1
    if not configured:
        status = 1
    if status == 0:
        print("check-deps: every package the build uses is in the base set or installed by install-deps.sh")
    return status


if __name__ == "__main__":
    sys.exit(main())

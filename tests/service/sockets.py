"""A look at a server's accepted sockets from outside its processes: the socket option a process
set is a fact of the socket, read here through a duplicate of its descriptor (Linux's
``pidfd_getfd``, 5.6 and later, where the caller may trace the process)."""

from __future__ import annotations

import ctypes
import os
import socket
from pathlib import Path

PIDFD_GETFD = 438  # the same number on every architecture Linux added it for


class CannotLook(Exception):
    """This machine does not let a process read another's descriptors; the reason says why."""


def _processes(root: int) -> list[int]:
    """``root`` and its children (a `serve --workers N` master and its workers)."""
    return [root, *children(root)]


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, read from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def server_side_option(
    root: int, peers: set[tuple[str, int]], level: int, option: int
) -> dict[tuple[str, int], int]:
    """For each client address in ``peers``, the option ``level``/``option`` of the socket that
    ``root`` or one of its children accepted from it."""
    if not hasattr(os, "pidfd_open"):
        raise CannotLook("no pidfd_open on this platform")
    libc = ctypes.CDLL(None, use_errno=True)
    seen: dict[tuple[str, int], int] = {}
    for pid in _processes(root):
        try:
            pidfd = os.pidfd_open(pid)
            names = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue  # the process ended meanwhile
        try:
            for name in names:
                try:
                    if not os.readlink(f"/proc/{pid}/fd/{name}").startswith("socket:"):
                        continue
                except OSError:
                    continue
                fd = libc.syscall(PIDFD_GETFD, pidfd, int(name), 0)
                if fd < 0:
                    raise CannotLook(f"pidfd_getfd: {os.strerror(ctypes.get_errno())}")
                sock = socket.socket(fileno=fd)
                try:
                    if sock.family in (socket.AF_INET, socket.AF_INET6):
                        peer = sock.getpeername()[:2]
                        if peer in peers:
                            seen[peer] = sock.getsockopt(level, option)
                except OSError:
                    pass  # a listening socket has no peer
                finally:
                    sock.close()  # the duplicate only: the server's descriptor stays open
        finally:
            os.close(pidfd)
    return seen


def owners(root: int, port: int) -> dict[tuple[str, int], int]:
    """For each client connected to ``port`` on 127.0.0.1, the pid (``root`` or a child) holding
    the server's side: its socket's inode, found in /proc/net/tcp, matched with the processes'
    descriptors."""
    by_inode: dict[str, tuple[str, int]] = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, inode = fields[1], fields[2], fields[9]
        if int(local.split(":")[1], 16) == port and remote != "00000000:0000":
            address, peer_port = remote.split(":")
            host = socket.inet_ntoa(bytes.fromhex(address)[::-1])
            by_inode[inode] = (host, int(peer_port, 16))
    found: dict[tuple[str, int], int] = {}
    for pid in _processes(root):
        try:
            names = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for name in names:
            try:
                link = os.readlink(f"/proc/{pid}/fd/{name}")
            except OSError:
                continue
            inode = link.removeprefix("socket:[").removesuffix("]")
            if inode in by_inode:
                found[by_inode[inode]] = pid
    return found

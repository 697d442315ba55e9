#!/usr/bin/python3
# A stand-in for systemd-logind on a private bus, for the graceful node shutdown tests. It
# offers what the agent uses of logind and systemd, with their names and signatures:
#   org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager
#     Inhibit(ssss) -> h   a lock held while the returned descriptor stays open (a FIFO's
#                          write end, as logind hands out; closing it releases the lock)
#     ListInhibitors() -> a(ssssuu)   what, who, why, mode, uid, pid of the caller
#     property InhibitDelayMaxUSec (t), read through org.freedesktop.DBus.Properties
#     signal PrepareForShutdown(b)
#   org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager
#     KillUnit(ssi): SIGHUP to systemd-logind.service re-reads InhibitDelayMaxSec from the
#                    drop-in directory, as logind does on reload
# and, for the test to drive it, org.orch.test.LogindStandIn on the same object:
#     Shutdown(b)  emits PrepareForShutdown(b)
#     Released() -> ad  seconds since the epoch at which each delay lock was released
# Written in Python because sending a descriptor over D-Bus needs SCM_RIGHTS, which Node's
# sockets cannot send; dbus-python (python3-dbus) does.
#
# usage: logind-stand-in.py ADDRESS DELAY_USEC DROP_IN_DIR

import os
import sys
import time

import dbus
import dbus.service
import dbus.mainloop.glib
from gi.repository import GLib

MANAGER = 'org.freedesktop.login1.Manager'
TEST = 'org.orch.test.LogindStandIn'


class Logind(dbus.service.Object):
    def __init__(self, bus, delay_usec, drop_in_dir):
        super().__init__(bus, '/org/freedesktop/login1')
        self.delay_usec = delay_usec
        self.drop_in_dir = drop_in_dir
        self.inhibitors = {}  # read end fd -> (what, who, why, mode, uid, pid)
        self.released = []
        self.bus_daemon = dbus.Interface(bus.get_object('org.freedesktop.DBus', '/org/freedesktop/DBus'), 'org.freedesktop.DBus')

    @dbus.service.method(MANAGER, in_signature='ssss', out_signature='h', sender_keyword='sender')
    def Inhibit(self, what, who, why, mode, sender=None):
        if mode not in ('block', 'delay'):
            raise dbus.exceptions.DBusException('Invalid mode specification', name='org.freedesktop.DBus.Error.InvalidArgs')
        pid = int(self.bus_daemon.GetConnectionUnixProcessID(sender))
        r, w = os.pipe()
        self.inhibitors[r] = (what, who, why, mode, os.getuid(), pid)
        GLib.io_add_watch(r, GLib.PRIORITY_DEFAULT, GLib.IO_HUP | GLib.IO_ERR, self._closed)
        fd = dbus.types.UnixFd(w)
        os.close(w)
        return fd

    def _closed(self, r, _condition):
        inhibitor = self.inhibitors.pop(r, None)
        os.close(r)
        if inhibitor and inhibitor[3] == 'delay':
            self.released.append(time.time())
        return False

    @dbus.service.method(MANAGER, in_signature='', out_signature='a(ssssuu)')
    def ListInhibitors(self):
        return [dbus.Struct(i, signature='ssssuu') for i in self.inhibitors.values()]

    @dbus.service.signal(MANAGER, signature='b')
    def PrepareForShutdown(self, active):
        pass

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature='ss', out_signature='v')
    def Get(self, interface, name):
        if interface == MANAGER and name == 'InhibitDelayMaxUSec':
            return dbus.UInt64(self.delay_usec)
        raise dbus.exceptions.DBusException(f'Unknown property {name}', name='org.freedesktop.DBus.Error.UnknownProperty')

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature='s', out_signature='a{sv}')
    def GetAll(self, interface):
        return {'InhibitDelayMaxUSec': dbus.UInt64(self.delay_usec)} if interface == MANAGER else {}

    def reload(self):
        # logind.conf.d drop-ins in lexical order, the last InhibitDelayMaxSec winning
        for name in sorted(os.listdir(self.drop_in_dir)) if os.path.isdir(self.drop_in_dir) else []:
            if not name.endswith('.conf'):
                continue
            with open(os.path.join(self.drop_in_dir, name)) as f:
                for line in f:
                    key, _, value = line.strip().partition('=')
                    if key == 'InhibitDelayMaxSec':
                        self.delay_usec = int(float(value) * 1_000_000)

    @dbus.service.method(TEST, in_signature='b', out_signature='')
    def Shutdown(self, active):
        self.PrepareForShutdown(active)

    @dbus.service.method(TEST, in_signature='', out_signature='ad')
    def Released(self):
        return dbus.Array(self.released, signature='d')


class Systemd(dbus.service.Object):
    def __init__(self, bus, logind):
        super().__init__(bus, '/org/freedesktop/systemd1')
        self.logind = logind

    @dbus.service.method('org.freedesktop.systemd1.Manager', in_signature='ssi', out_signature='')
    def KillUnit(self, unit, who, signal):
        if unit == 'systemd-logind.service' and signal == 1:
            self.logind.reload()


def main():
    address, delay_usec, drop_in_dir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(address)
    logind = Logind(bus, delay_usec, drop_in_dir)
    Systemd(bus, logind)
    names = [dbus.service.BusName('org.freedesktop.login1', bus), dbus.service.BusName('org.freedesktop.systemd1', bus)]
    print('ready', flush=True)
    loop = GLib.MainLoop()
    bus.call_on_disconnection(lambda _conn: loop.quit())
    loop.run()
    del names


if __name__ == '__main__':
    main()

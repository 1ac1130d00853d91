//! The host's UDP transport: the netcode handshake and renet's channels
//! (as `renet_netcode`'s server transport does it), with a guard between
//! the network and the libraries. Two malformed packets made them panic on
//! the host's socket thread and froze the table (found by a hostile
//! client, 2026-11-28): a netcode packet whose header claims more than 8
//! sequence bytes (renetcode 2.0.0), and a message slice numbered past its
//! count (renet 2.0.1). The first is dropped before it is read; anything a
//! library still cannot read ends that one client's connection, never the
//! table.

use std::io;
use std::net::UdpSocket;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;
use std::time::Duration;

use renet::RenetServer;
use renetcode::{NETCODE_MAX_PACKET_BYTES, NetcodeServer, ServerConfig, ServerResult};

/// The name of the host's socket thread.
pub const THREAD: &str = "bterm-host-link";

thread_local! {
    /// Whether this thread is reading a packet through the libraries now
    /// (a panic there is caught, and its client dropped).
    static GUARDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The guarded server transport.
pub struct Guarded {
    socket: UdpSocket,
    netcode: NetcodeServer,
    buffer: Box<[u8; NETCODE_MAX_PACKET_BYTES]>,
}

/// Whether a netcode packet's first byte can be read: a connection request
/// (type 0) has no sequence, every other packet 1 to 8 sequence bytes.
pub fn plausible(packet: &[u8]) -> bool {
    let Some(&prefix) = packet.first() else {
        return false;
    };
    let (kind, sequence) = (prefix & 0xF, usize::from(prefix >> 4));
    kind == 0 || (1..=8).contains(&sequence) && packet.len() > sequence
}

impl Guarded {
    /// Takes `socket` (made non-blocking) with the netcode `config`.
    pub fn new(config: ServerConfig, socket: UdpSocket) -> io::Result<Guarded> {
        socket.set_nonblocking(true)?;
        quiet_library_panics();
        Ok(Guarded {
            socket,
            netcode: NetcodeServer::new(config),
            buffer: Box::new([0; NETCODE_MAX_PACKET_BYTES]),
        })
    }

    /// Reads what arrived and advances the connections by `dt`. Returns
    /// the clients whose packets a library could not read (they were
    /// disconnected).
    pub fn update(&mut self, dt: Duration, server: &mut RenetServer) -> Vec<u64> {
        self.netcode.update(dt);
        let mut broke = Vec::new();
        loop {
            let (len, addr) = match self.socket.recv_from(&mut self.buffer[..]) {
                Ok(got) => got,
                Err(e) if e.kind() == io::ErrorKind::ConnectionReset => continue,
                Err(_) => break,
            };
            let packet = &mut self.buffer[..len];
            if !plausible(packet) {
                continue;
            }
            let (netcode, socket) = (&mut self.netcode, &self.socket);
            GUARDING.set(true);
            let read = catch_unwind(AssertUnwindSafe(|| {
                let result = netcode.process_packet(addr, packet);
                handle(result, socket, server);
            }));
            GUARDING.set(false);
            if read.is_err()
                && let Some(id) = self
                    .netcode
                    .clients_id()
                    .into_iter()
                    .find(|&id| self.netcode.client_addr(id) == Some(addr))
            {
                self.disconnect(id, server);
                broke.push(id);
            }
        }
        for id in self.netcode.clients_id() {
            let result = self.netcode.update_client(id);
            handle(result, &self.socket, server);
        }
        for id in server.disconnections_id() {
            let result = self.netcode.disconnect(id);
            handle(result, &self.socket, server);
        }
        broke
    }

    /// Ends a client's connection at once.
    fn disconnect(&mut self, id: u64, server: &mut RenetServer) {
        let result = self.netcode.disconnect(id);
        handle(result, &self.socket, server);
        server.remove_connection(id);
    }

    /// Sends what renet has queued for each client.
    pub fn send_packets(&mut self, server: &mut RenetServer) {
        for id in server.clients_id() {
            let Ok(packets) = server.get_packets_to_send(id) else {
                continue;
            };
            for packet in packets {
                match self.netcode.generate_payload_packet(id, &packet) {
                    Ok((addr, payload)) => {
                        if self.socket.send_to(payload, addr).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        }
    }

    /// Tells every client the table is closing.
    pub fn disconnect_all(&mut self, server: &mut RenetServer) {
        for id in self.netcode.clients_id() {
            let result = self.netcode.disconnect(id);
            handle(result, &self.socket, server);
        }
    }
}

fn handle(result: ServerResult, socket: &UdpSocket, server: &mut RenetServer) {
    match result {
        ServerResult::None => {}
        ServerResult::PacketToSend { payload, addr } => {
            let _ = socket.send_to(payload, addr);
        }
        ServerResult::Payload { client_id, payload } => {
            // A payload renet refuses ends that client's connection (renet
            // marks it disconnected itself).
            let _ = server.process_packet_from(payload, client_id);
        }
        ServerResult::ClientConnected {
            client_id,
            addr,
            payload,
            ..
        } => {
            server.add_connection(client_id);
            let _ = socket.send_to(payload, addr);
        }
        ServerResult::ClientDisconnected {
            client_id,
            addr,
            payload,
        } => {
            server.remove_connection(client_id);
            if let Some(payload) = payload {
                let _ = socket.send_to(payload, addr);
            }
        }
    }
}

/// A library's panic while it reads a packet is caught and its client
/// dropped with a reason; the default hook's message (library text about a
/// stranger's packet) is not printed. Every other panic keeps the hook it
/// had.
fn quiet_library_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !GUARDING.get() {
                before(info);
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use renet::ConnectionConfig;
    use renetcode::{ClientAuthentication, NetcodeClient, ServerAuthentication};
    use std::net::SocketAddr;

    /// A netcode client connected to a guarded server on this machine.
    fn connected() -> (Guarded, RenetServer, NetcodeClient, UdpSocket, SocketAddr) {
        const PROTOCOL: u64 = 0x6274_6572_6d00_0099;
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        let addr = socket.local_addr().unwrap();
        let config = ServerConfig {
            current_time: Duration::ZERO,
            max_clients: 4,
            protocol_id: PROTOCOL,
            public_addresses: vec![addr],
            authentication: ServerAuthentication::Unsecure,
        };
        let mut guarded = Guarded::new(config, socket).unwrap();
        let mut server = RenetServer::new(ConnectionConfig::default());
        let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
        sock.set_nonblocking(true).unwrap();
        let auth = ClientAuthentication::Unsecure {
            protocol_id: PROTOCOL,
            client_id: 7,
            server_addr: addr,
            user_data: None,
        };
        let mut client = NetcodeClient::new(Duration::ZERO, auth).unwrap();
        let step = Duration::from_millis(5);
        for _ in 0..400 {
            if let Some((packet, to)) = client.update(step) {
                sock.send_to(packet, to).unwrap();
            }
            let mut buf = [0u8; NETCODE_MAX_PACKET_BYTES];
            while let Ok((n, _)) = sock.recv_from(&mut buf) {
                client.process_packet(&mut buf[..n]);
            }
            server.update(step);
            assert!(guarded.update(step, &mut server).is_empty());
            guarded.send_packets(&mut server);
            if client.is_connected() && server.clients_id().contains(&7) {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(client.is_connected(), "the handshake completes");
        (guarded, server, client, sock, addr)
    }

    /// The two packets of the hostile client that froze tables: both now
    /// leave the socket thread running; the second ends its sender's
    /// connection.
    #[test]
    fn packets_the_libraries_panic_on_end_one_connection_not_the_table() {
        let (mut guarded, mut server, mut client, sock, addr) = connected();
        let step = Duration::from_millis(5);
        // A netcode header claiming 15 sequence bytes: dropped unread.
        sock.send_to(&[0xF3; 41], addr).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        assert!(guarded.update(step, &mut server).is_empty());
        assert!(server.clients_id().contains(&7), "still connected");
        // A renet message slice numbered 5 of 2 on the reliable channel.
        let mut slice = vec![2u8, 0, 2, 0, 5, 2, 0x44, 0xB0];
        slice.extend([0u8; 1200]);
        let (to, packet) = client.generate_payload_packet(&slice).unwrap();
        sock.send_to(packet, to).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(guarded.update(step, &mut server), vec![7]);
        assert!(!server.clients_id().contains(&7), "its connection ended");
    }

    #[test]
    fn a_netcode_header_claiming_more_than_8_sequence_bytes_is_dropped_unread() {
        // The hostile client's packet: type 3 with 15 sequence bytes.
        assert!(!plausible(&[0xF3; 41]));
        assert!(!plausible(&[0x93; 41]), "9 sequence bytes");
        assert!(!plausible(&[0x03; 41]), "no sequence byte");
        assert!(!plausible(&[]));
        assert!(!plausible(&[0x83; 8]), "shorter than its sequence");
        assert!(plausible(&[0x00; 41]), "a connection request has none");
        assert!(plausible(&[0x13; 41]));
        assert!(plausible(&[0x83; 41]));
    }
}

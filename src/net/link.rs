//! The transport: renet's reliable ordered channel over UDP, with the
//! netcode handshake (`renet_netcode`). Each end runs its socket on a thread
//! of its own that updates the connection every few milliseconds, so a
//! host or client that waits for a person's key never lets the connection
//! time out; the game's side talks to it through channels.

use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TrySendError, channel, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use renet::{ConnectionConfig, DefaultChannel, RenetClient, RenetServer, ServerEvent};
use renet_netcode::{
    ClientAuthentication, NetcodeClientTransport, NetcodeServerTransport, ServerAuthentication,
    ServerConfig,
};

/// The netcode protocol id of bterm's LAN play ("bterm" and the version):
/// other programs' packets are dropped by the handshake.
const NETCODE_PROTOCOL: u64 = 0x6274_6572_6d00_0000 | super::protocol::PROTOCOL_VERSION as u64;

/// How often the socket thread updates the connection.
const TICK: Duration = Duration::from_millis(2);

/// The most clients (players and spectators) a table takes.
pub const MAX_CLIENTS: usize = 16;

/// Messages the game's side has not read yet, at most (a client that
/// floods the table loses what is over; an honest one sends a few per
/// question).
const INBOX: usize = 4096;

/// What the host's socket thread hands on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inbound {
    /// A client connected.
    Joined(u64),
    /// A client's connection ended, and why.
    Left(u64, String),
    /// A client's message (its size not yet checked).
    Message(u64, Vec<u8>),
}

enum Outbound {
    Send(u64, Vec<u8>),
    Drop(u64),
}

/// The host's end: a UDP socket that takes clients.
pub struct HostLink {
    out: Sender<Outbound>,
    inbound: Receiver<Inbound>,
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

fn now() -> Duration {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
}

impl HostLink {
    /// Listens on `addr` (port 0 picks a free port; see [`HostLink::addr`]).
    pub fn bind(addr: SocketAddr) -> std::io::Result<HostLink> {
        let socket = UdpSocket::bind(addr)?;
        let addr = socket.local_addr()?;
        let config = ServerConfig {
            current_time: now(),
            max_clients: MAX_CLIENTS,
            protocol_id: NETCODE_PROTOCOL,
            public_addresses: vec![addr],
            // The join code is checked in the first message; the LAN has no
            // service to hand out signed connect tokens.
            authentication: ServerAuthentication::Unsecure,
        };
        let mut transport = NetcodeServerTransport::new(config, socket)?;
        let mut server = RenetServer::new(ConnectionConfig::default());
        let (out_tx, out_rx) = channel::<Outbound>();
        let (in_tx, in_rx) = sync_channel::<Inbound>(INBOX);
        let stop = Arc::new(AtomicBool::new(false));
        let halt = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("bterm-host-link".into())
            .spawn(move || {
                let mut last = Instant::now();
                while !halt.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    let dt = t - last;
                    last = t;
                    server.update(dt);
                    // A bad packet is the sender's problem, not the table's.
                    let _ = transport.update(dt, &mut server);
                    while let Some(event) = server.get_event() {
                        let msg = match event {
                            ServerEvent::ClientConnected { client_id } => {
                                Inbound::Joined(client_id)
                            }
                            ServerEvent::ClientDisconnected { client_id, reason } => {
                                Inbound::Left(client_id, reason.to_string())
                            }
                        };
                        if in_tx.send(msg).is_err() {
                            return;
                        }
                    }
                    for id in server.clients_id() {
                        while let Some(m) =
                            server.receive_message(id, DefaultChannel::ReliableOrdered)
                        {
                            match in_tx.try_send(Inbound::Message(id, m.to_vec())) {
                                Ok(()) | Err(TrySendError::Full(_)) => {}
                                Err(TrySendError::Disconnected(_)) => return,
                            }
                        }
                    }
                    while let Ok(o) = out_rx.try_recv() {
                        match o {
                            Outbound::Send(id, bytes) => {
                                if server.is_connected(id)
                                    && server.can_send_message(
                                        id,
                                        DefaultChannel::ReliableOrdered,
                                        bytes.len(),
                                    )
                                {
                                    server.send_message(id, DefaultChannel::ReliableOrdered, bytes);
                                }
                            }
                            Outbound::Drop(id) => {
                                // Flush what was queued (a refusal) first.
                                transport.send_packets(&mut server);
                                server.disconnect(id);
                            }
                        }
                    }
                    transport.send_packets(&mut server);
                    std::thread::sleep(TICK);
                }
                transport.send_packets(&mut server);
                transport.disconnect_all(&mut server);
            })?;
        Ok(HostLink {
            out: out_tx,
            inbound: in_rx,
            addr,
            stop,
            thread: Some(thread),
        })
    }

    /// The address the table listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Sends a message to a client (dropped if it is gone).
    pub fn send(&self, client: u64, bytes: Vec<u8>) {
        let _ = self.out.send(Outbound::Send(client, bytes));
    }

    /// Ends a client's connection (after what was sent to it).
    pub fn drop_client(&self, client: u64) {
        let _ = self.out.send(Outbound::Drop(client));
    }

    /// The next thing that happened, waiting at most `wait`.
    pub fn recv(&self, wait: Duration) -> Option<Inbound> {
        self.inbound.recv_timeout(wait).ok()
    }
}

impl Drop for HostLink {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What the client's socket thread hands on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FromHost {
    /// The handshake is done.
    Connected,
    /// A message from the host (its size not yet checked).
    Message(Vec<u8>),
    /// The connection ended, and why.
    Closed(String),
}

/// A client's end: a connection to one table.
pub struct ClientLink {
    out: Sender<Vec<u8>>,
    inbound: Receiver<FromHost>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ClientLink {
    /// Starts connecting to the table at `host` (see [`FromHost::Connected`]).
    pub fn connect(host: SocketAddr) -> std::io::Result<ClientLink> {
        let local: SocketAddr = if host.is_ipv4() {
            "0.0.0.0:0"
        } else {
            "[::]:0"
        }
        .parse()
        .map_err(|e| std::io::Error::other(format!("{e}")))?;
        let socket = UdpSocket::bind(local)?;
        let id = now().as_nanos() as u64 ^ (u64::from(std::process::id()) << 32);
        let auth = ClientAuthentication::Unsecure {
            protocol_id: NETCODE_PROTOCOL,
            client_id: id,
            server_addr: host,
            user_data: None,
        };
        let mut transport = NetcodeClientTransport::new(now(), auth, socket)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let mut client = RenetClient::new(ConnectionConfig::default());
        let (out_tx, out_rx) = channel::<Vec<u8>>();
        let (in_tx, in_rx) = sync_channel::<FromHost>(INBOX);
        let stop = Arc::new(AtomicBool::new(false));
        let halt = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("bterm-client-link".into())
            .spawn(move || {
                let mut last = Instant::now();
                let mut connected = false;
                while !halt.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    let dt = t - last;
                    last = t;
                    client.update(dt);
                    if let Err(e) = transport.update(dt, &mut client) {
                        let _ = in_tx.send(FromHost::Closed(e.to_string()));
                        return;
                    }
                    if client.is_connected() && !connected {
                        connected = true;
                        if in_tx.send(FromHost::Connected).is_err() {
                            return;
                        }
                    }
                    while let Some(m) = client.receive_message(DefaultChannel::ReliableOrdered) {
                        // Blocks while the game's side is behind: the host's
                        // messages are never dropped.
                        if in_tx.send(FromHost::Message(m.to_vec())).is_err() {
                            return;
                        }
                    }
                    if let Some(reason) = client.disconnect_reason() {
                        let _ = in_tx.send(FromHost::Closed(reason.to_string()));
                        return;
                    }
                    if client.is_connected() {
                        while let Ok(bytes) = out_rx.try_recv() {
                            // (The host checks the size of what it gets.)
                            if client.can_send_message(DefaultChannel::ReliableOrdered, bytes.len())
                            {
                                client.send_message(DefaultChannel::ReliableOrdered, bytes);
                            }
                        }
                    }
                    let _ = transport.send_packets(&mut client);
                    std::thread::sleep(TICK);
                }
                // Say goodbye, so the host knows at once.
                let _ = transport.send_packets(&mut client);
                transport.disconnect();
            })?;
        Ok(ClientLink {
            out: out_tx,
            inbound: in_rx,
            stop,
            thread: Some(thread),
        })
    }

    /// Sends a message to the host (queued until connected).
    pub fn send(&self, bytes: Vec<u8>) {
        let _ = self.out.send(bytes);
    }

    /// The next thing from the host, waiting at most `wait`; `None` when
    /// nothing came in time.
    pub fn recv(&self, wait: Duration) -> Option<FromHost> {
        match self.inbound.recv_timeout(wait) {
            Ok(m) => Some(m),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                Some(FromHost::Closed("the connection ended".to_string()))
            }
        }
    }
}

impl Drop for ClientLink {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

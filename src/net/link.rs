//! The transport: renet's reliable ordered channel over UDP, with the
//! netcode handshake (`renet_netcode`). Each end runs its socket on a thread
//! of its own that updates the connection every few milliseconds, so a
//! host or client that waits for a person's key never lets the connection
//! time out; the game's side talks to it through channels.

use std::collections::HashMap;
use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::protocol::MAX_MESSAGE;
use renet::{
    ChannelConfig, ConnectionConfig, DefaultChannel, RenetClient, RenetServer, SendType,
    ServerEvent,
};
use renet_netcode::{
    ClientAuthentication, NetcodeClientTransport, ServerAuthentication, ServerConfig,
};

use super::guard::{self, Guarded};

/// The netcode protocol id of bterm's LAN play ("bterm" and the version):
/// other programs' packets are dropped by the handshake.
const NETCODE_PROTOCOL: u64 = 0x6274_6572_6d00_0000 | super::protocol::PROTOCOL_VERSION as u64;

/// How often the socket thread updates the connection.
const TICK: Duration = Duration::from_millis(1);

/// The most clients (players and spectators) a table takes.
pub const MAX_CLIENTS: usize = 32;

/// Bytes from one client the host's game side has not read yet, at most:
/// a client whose message would go over its own share is disconnected (an
/// honest one sends a few small answers per question), and no client is
/// ever dropped for another's traffic. All clients together hold at most
/// `MAX_CLIENTS` shares.
const CLIENT_SHARE: usize = 1 << 20;

/// Bytes from the host a client's game side has not read yet, at most.
const CLIENT_INBOX: usize = 64 << 20;

/// Messages a client may send in a second before it is disconnected.
const RATE: u32 = 100;

/// How long a client may acknowledge almost nothing the host sends while
/// the host's traffic to it is high (renet sends what is unacknowledged
/// again every 300 ms, so a client that never acknowledges makes it grow
/// without end: a few of them flooded the network) before it is let go;
/// it may rejoin.
const DEAF: Duration = Duration::from_secs(10);

/// The share of the host's packets lost, over renet's window, above which
/// a client counts as not acknowledging.
const DEAF_LOSS: f64 = 0.9;

/// Bytes a second to one client above which its not acknowledging counts:
/// an honest client is sent a few tens of kilobytes a second at most.
const DEAF_TRAFFIC: f64 = 100_000.0;

/// The channels both ends use: renet's reliable ordered channel, with room
/// for a few of the largest messages a client may send, and more for the
/// host's views.
fn channels() -> ConnectionConfig {
    let channel = |bytes: usize| {
        vec![ChannelConfig {
            channel_id: DefaultChannel::ReliableOrdered.into(),
            max_memory_usage_bytes: bytes,
            send_type: SendType::ReliableOrdered {
                resend_time: Duration::from_millis(300),
            },
        }]
    };
    ConnectionConfig {
        server_channels_config: channel(8 << 20),
        client_channels_config: channel(4 * MAX_MESSAGE),
        ..ConnectionConfig::default()
    }
}

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
    /// Bytes of messages sent on by the socket thread and not yet read.
    unread: Arc<AtomicUsize>,
    /// The same per client.
    unread_by: Arc<std::sync::Mutex<HashMap<u64, usize>>>,
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
        let mut transport = Guarded::new(config, socket)?;
        let mut server = RenetServer::new(channels());
        let (out_tx, out_rx) = channel::<Outbound>();
        let (in_tx, in_rx) = channel::<Inbound>();
        let stop = Arc::new(AtomicBool::new(false));
        let halt = Arc::clone(&stop);
        let queued = Arc::new(AtomicUsize::new(0));
        let unread = Arc::clone(&queued);
        let held: Arc<std::sync::Mutex<HashMap<u64, usize>>> = Arc::default();
        let unread_by = Arc::clone(&held);
        let thread = std::thread::Builder::new()
            .name(guard::THREAD.into())
            .spawn(move || {
                let mut last = Instant::now();
                // Per client: the second its count started, and the count.
                let mut rates: HashMap<u64, (Instant, u32)> = HashMap::new();
                // Per client: since when it acknowledges almost nothing.
                let mut deaf: HashMap<u64, Instant> = HashMap::new();
                let mut looked = Instant::now();
                // Why the host let a client go, for its Left.
                let mut why_gone: HashMap<u64, String> = HashMap::new();
                while !halt.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    let dt = t - last;
                    last = t;
                    server.update(dt);
                    // A bad packet is the sender's problem, not the table's.
                    for id in transport.update(dt, &mut server) {
                        why_gone.insert(
                            id,
                            "it sent a packet the network library cannot read".to_string(),
                        );
                    }
                    if t.duration_since(looked) >= Duration::from_secs(1) {
                        looked = t;
                        for id in server.clients_id() {
                            let lost = server.network_info(id).is_ok_and(|n| {
                                n.packet_loss > DEAF_LOSS && n.bytes_sent_per_second > DEAF_TRAFFIC
                            });
                            if !lost {
                                deaf.remove(&id);
                                continue;
                            }
                            let since = *deaf.entry(id).or_insert(t);
                            if t.duration_since(since) >= DEAF {
                                why_gone.insert(
                                    id,
                                    format!(
                                        "it acknowledged almost nothing of what the table sent it for {} s",
                                        DEAF.as_secs()
                                    ),
                                );
                                server.disconnect(id);
                            }
                        }
                    }
                    while let Some(event) = server.get_event() {
                        let msg = match event {
                            ServerEvent::ClientConnected { client_id } => {
                                Inbound::Joined(client_id)
                            }
                            ServerEvent::ClientDisconnected { client_id, reason } => {
                                rates.remove(&client_id);
                                deaf.remove(&client_id);
                                let why = why_gone
                                    .remove(&client_id)
                                    .unwrap_or_else(|| reason.to_string());
                                Inbound::Left(client_id, why)
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
                            let rate = rates.entry(id).or_insert((t, 0));
                            if t.duration_since(rate.0) >= Duration::from_secs(1) {
                                *rate = (t, 0);
                            }
                            rate.1 += 1;
                            let why = if m.len() > MAX_MESSAGE {
                                Some(format!(
                                    "it sent a message of {} bytes (at most {MAX_MESSAGE})",
                                    m.len()
                                ))
                            } else if rate.1 > RATE {
                                Some(format!("it sent over {RATE} messages in a second"))
                            } else if held
                                .lock()
                                .map(|h| h.get(&id).copied().unwrap_or(0))
                                .unwrap_or(0)
                                + m.len()
                                > CLIENT_SHARE
                            {
                                Some("the table has too much of its messages unread".to_string())
                            } else {
                                None
                            };
                            if let Some(why) = why {
                                // Its other messages go with it.
                                while server
                                    .receive_message(id, DefaultChannel::ReliableOrdered)
                                    .is_some()
                                {}
                                server.disconnect(id);
                                if in_tx.send(Inbound::Left(id, why)).is_err() {
                                    return;
                                }
                                break;
                            }
                            queued.fetch_add(m.len(), Ordering::Relaxed);
                            if let Ok(mut h) = held.lock() {
                                *h.entry(id).or_default() += m.len();
                            }
                            if in_tx.send(Inbound::Message(id, m.to_vec())).is_err() {
                                return;
                            }
                        }
                    }
                    while let Ok(o) = out_rx.try_recv() {
                        match o {
                            Outbound::Send(id, bytes) => {
                                if !server.is_connected(id) {
                                    continue;
                                }
                                if server.can_send_message(
                                    id,
                                    DefaultChannel::ReliableOrdered,
                                    bytes.len(),
                                ) {
                                    server.send_message(id, DefaultChannel::ReliableOrdered, bytes);
                                } else {
                                    // A client that cannot keep up is let go (it
                                    // may rejoin and be sent the table afresh),
                                    // never silently missing a message.
                                    server.disconnect(id);
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
            unread,
            unread_by,
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
        let m = self.inbound.recv_timeout(wait).ok()?;
        match &m {
            Inbound::Message(id, bytes) => {
                self.unread.fetch_sub(bytes.len(), Ordering::Relaxed);
                if let Ok(mut h) = self.unread_by.lock()
                    && let Some(n) = h.get_mut(id)
                {
                    *n = n.saturating_sub(bytes.len());
                }
            }
            Inbound::Left(id, _) => {
                if let Ok(mut h) = self.unread_by.lock() {
                    h.remove(id);
                }
            }
            Inbound::Joined(_) => {}
        }
        Some(m)
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
    /// Bytes of messages sent on by the socket thread and not yet read.
    unread: Arc<AtomicUsize>,
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
        let mut client = RenetClient::new(channels());
        let (out_tx, out_rx) = channel::<Vec<u8>>();
        let (in_tx, in_rx) = channel::<FromHost>();
        let stop = Arc::new(AtomicBool::new(false));
        let halt = Arc::clone(&stop);
        let queued = Arc::new(AtomicUsize::new(0));
        let unread = Arc::clone(&queued);
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
                        if queued.load(Ordering::Relaxed) + m.len() > CLIENT_INBOX {
                            let _ = in_tx.send(FromHost::Closed(format!(
                                "the table sent over {} MiB this client has not read yet",
                                CLIENT_INBOX >> 20
                            )));
                            return;
                        }
                        queued.fetch_add(m.len(), Ordering::Relaxed);
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
            unread,
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
            Ok(m) => {
                if let FromHost::Message(bytes) = &m {
                    self.unread.fetch_sub(bytes.len(), Ordering::Relaxed);
                }
                Some(m)
            }
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

//! Finding tables: a host announces itself on the LAN with mDNS (service
//! `_bterm._udp.local.`, its game, seats and protocol version in the TXT
//! record); `bterm join` with no address lists the tables it hears.

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use mdns_sd::{ServiceDaemon, ServiceEvent, ServiceInfo};

use super::protocol::PROTOCOL_VERSION;
use crate::rules::RulesetId;

/// The mDNS service type of a bterm table.
pub const SERVICE: &str = "_bterm._udp.local.";

/// A table heard on the LAN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The table's name.
    pub name: String,
    /// Where to join it.
    pub addr: SocketAddr,
    /// Its game, as announced ("Terminal", "Alpha").
    pub game: String,
    /// Its seats ("2", "4").
    pub seats: String,
    /// The protocol version it speaks.
    pub version: String,
}

/// A table's announcement; it stops when dropped.
pub struct Announcement {
    daemon: ServiceDaemon,
    fullname: String,
}

/// Announces a table listening on `port`.
pub fn announce(
    table: &str,
    game: RulesetId,
    seats: usize,
    port: u16,
) -> Result<Announcement, String> {
    let daemon = ServiceDaemon::new().map_err(|e| e.to_string())?;
    let host = format!("bterm-{}.local.", std::process::id());
    let game = format!("{game:?}");
    let seats = seats.to_string();
    let version = PROTOCOL_VERSION.to_string();
    let props = [
        ("game", game.as_str()),
        ("seats", seats.as_str()),
        ("version", version.as_str()),
    ];
    let info = ServiceInfo::new(SERVICE, table, &host, "", port, &props[..])
        .map_err(|e| e.to_string())?
        .enable_addr_auto();
    let fullname = info.get_fullname().to_string();
    daemon.register(info).map_err(|e| e.to_string())?;
    Ok(Announcement { daemon, fullname })
}

impl Drop for Announcement {
    fn drop(&mut self) {
        let _ = self.daemon.unregister(&self.fullname);
        let _ = self.daemon.shutdown();
    }
}

/// Listens for tables for `wait` and returns those heard, by name.
pub fn browse(wait: Duration) -> Result<Vec<Found>, String> {
    let daemon = ServiceDaemon::new().map_err(|e| e.to_string())?;
    let events = daemon.browse(SERVICE).map_err(|e| e.to_string())?;
    let end = Instant::now() + wait;
    let mut found: Vec<Found> = Vec::new();
    // One table is one entry, however many of its host's interfaces (and
    // addresses) answer: a table is its announcing host and its port.
    let mut heard: Vec<(String, u16)> = Vec::new();
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        let Ok(event) = events.recv_timeout(left) else {
            break;
        };
        if let ServiceEvent::ServiceResolved(info) = event {
            let ip: Option<IpAddr> = info.get_addresses_v4().into_iter().next().map(IpAddr::V4);
            let Some(ip) = ip else { continue };
            let prop = |k: &str| info.get_property_val_str(k).unwrap_or("?").to_string();
            let name = info
                .get_fullname()
                .strip_suffix(&format!(".{SERVICE}"))
                .unwrap_or(info.get_fullname())
                .to_string();
            let table = Found {
                name,
                addr: SocketAddr::new(ip, info.get_port()),
                game: prop("game"),
                seats: prop("seats"),
                version: prop("version"),
            };
            let key = (info.get_hostname().to_string(), info.get_port());
            if !heard.contains(&key) && !found.iter().any(|f| f.addr == table.addr) {
                heard.push(key);
                found.push(table);
            }
        }
    }
    let _ = daemon.stop_browse(SERVICE);
    let _ = daemon.shutdown();
    found.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(found)
}

/// This machine's addresses another machine on the network can reach it
/// at: IPv4 (a table listens on IPv4), up, not loopback or link-local;
/// empty when none is found.
pub fn lan_addresses() -> Vec<std::net::Ipv4Addr> {
    let mut out: Vec<std::net::Ipv4Addr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .into_iter()
        .filter(|i| i.is_oper_up() || i.oper_status == if_addrs::IfOperStatus::Unknown)
        .filter_map(|i| match i.ip() {
            IpAddr::V4(v4) if joinable(v4) => Some(v4),
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether another machine may reach this one at `ip`.
fn joinable(ip: std::net::Ipv4Addr) -> bool {
    !(ip.is_loopback() || ip.is_link_local() || ip.is_unspecified() || ip.is_broadcast())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    #[test]
    fn a_table_is_joinable_at_a_lan_address_not_at_loopback_or_link_local() {
        assert!(joinable(Ipv4Addr::new(192, 168, 1, 20)));
        assert!(joinable(Ipv4Addr::new(10, 0, 0, 7)));
        assert!(!joinable(Ipv4Addr::LOCALHOST));
        assert!(!joinable(Ipv4Addr::new(169, 254, 3, 4)));
        assert!(!joinable(Ipv4Addr::UNSPECIFIED));
        // What this machine finds is only such addresses.
        assert!(lan_addresses().into_iter().all(joinable));
    }
}

//! Arcade sounds, synthesised at start-up (no sound files): button blips,
//! the timer's tick, technique launches, clashes, deletions, evolutions.
//! `--mute` plays nothing; without an audio device the game runs the same.

use std::collections::HashMap;
use std::f32::consts::TAU;
use std::sync::Arc;

use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;

use crate::arena::{AppSystems, Settings};

/// Samples per second of the synthesised sounds.
const RATE: u32 = 22_050;

/// A sound the game makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sound {
    /// A button press.
    Button,
    /// The last seconds of a timer.
    Tick,
    /// A card read by the scanner.
    Scan,
    /// A card refused.
    Refuse,
    /// A round starts.
    Round,
    /// Stances shown.
    Reveal,
    /// A technique flies.
    Launch,
    /// Two techniques meet.
    Clash,
    /// A Digimon is deleted.
    Delete,
    /// Digivolution or Jogress.
    Evolve,
    /// The battle is won.
    Fanfare,
}

impl Sound {
    /// Every sound.
    pub const ALL: [Sound; 11] = [
        Sound::Button,
        Sound::Tick,
        Sound::Scan,
        Sound::Refuse,
        Sound::Round,
        Sound::Reveal,
        Sound::Launch,
        Sound::Clash,
        Sound::Delete,
        Sound::Evolve,
        Sound::Fanfare,
    ];
}

/// Ask for a sound.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sfx(pub Sound);

/// The synthesised sounds, as audio assets.
#[derive(Resource, Default)]
struct Sounds(HashMap<Sound, Handle<AudioSource>>);

/// The message is always registered (so every screen can ask for sounds);
/// the output is a separate plugin, left out of headless tests.
pub(in crate::arena) fn plugin(app: &mut App) {
    app.add_message::<Sfx>();
}

/// Whether this machine has somewhere to play sound: on Linux a playback
/// device under `/dev/snd` or a sound server's socket; elsewhere, assumed.
/// Without one the game plays silent and the audio output is never opened
/// (so the sound library prints nothing about a device it cannot find).
pub fn sound_device() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let playback = std::fs::read_dir("/dev/snd").is_ok_and(|dir| {
        dir.filter_map(Result::ok).any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("pcmC") && name.ends_with('p')
        })
    });
    let server = std::env::var_os("PULSE_SERVER").is_some()
        || std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| {
            let d = std::path::PathBuf::from(d);
            d.join("pulse/native").exists() || d.join("pipewire-0").exists()
        });
    playback || server
}

/// The sound output, where the engine's audio is there to play it.
pub(in crate::arena) fn output_plugin_if_heard(app: &mut App) {
    if app.is_plugin_added::<bevy::audio::AudioPlugin>() {
        output_plugin(app);
    }
}

pub(in crate::arena) fn output_plugin(app: &mut App) {
    app.init_resource::<Sounds>()
        .add_systems(Startup, make_sounds)
        .add_systems(Update, play.in_set(AppSystems::Update));
}

fn make_sounds(mut sounds: ResMut<Sounds>, mut assets: ResMut<Assets<AudioSource>>) {
    for s in Sound::ALL {
        let bytes: Arc<[u8]> = wav(&synth(s)).into();
        sounds.0.insert(s, assets.add(AudioSource { bytes }));
    }
}

fn play(
    mut commands: Commands,
    mut asks: MessageReader<Sfx>,
    sounds: Res<Sounds>,
    settings: Res<Settings>,
) {
    let mut seen = Vec::new();
    for Sfx(s) in asks.read() {
        // One of each per frame: a burst of events must not stack a sound ten times.
        if settings.mute || seen.contains(s) {
            continue;
        }
        seen.push(*s);
        if let Some(h) = sounds.0.get(s) {
            commands.spawn((
                AudioPlayer(h.clone()),
                PlaybackSettings::DESPAWN.with_volume(Volume::Linear(0.5)),
            ));
        }
    }
}

/// The samples of a sound, in -1..1.
pub fn synth(sound: Sound) -> Vec<f32> {
    match sound {
        Sound::Button => tone(&[(880.0, 0.06)], Wave::Square, 0.4),
        Sound::Tick => tone(&[(1320.0, 0.03)], Wave::Square, 0.3),
        Sound::Scan => tone(&[(988.0, 0.07), (1319.0, 0.12)], Wave::Square, 0.35),
        Sound::Refuse => tone(&[(220.0, 0.12), (165.0, 0.2)], Wave::Square, 0.4),
        Sound::Round => tone(
            &[(523.0, 0.08), (659.0, 0.08), (784.0, 0.16)],
            Wave::Triangle,
            0.5,
        ),
        Sound::Reveal => sweep(400.0, 1600.0, 0.18, Wave::Square, 0.3),
        Sound::Launch => noisy_sweep(1800.0, 300.0, 0.35, 0.5),
        Sound::Clash => mix(
            &noise_burst(0.45, 0.9, 7),
            &sweep(140.0, 45.0, 0.45, Wave::Sine, 0.8),
        ),
        Sound::Delete => mix(
            &noise_burst(0.9, 0.7, 11),
            &sweep(300.0, 40.0, 0.9, Wave::Square, 0.3),
        ),
        Sound::Evolve => tone(
            &[
                (392.0, 0.07),
                (523.0, 0.07),
                (659.0, 0.07),
                (784.0, 0.07),
                (1047.0, 0.3),
            ],
            Wave::Triangle,
            0.5,
        ),
        Sound::Fanfare => tone(
            &[
                (523.0, 0.12),
                (523.0, 0.12),
                (523.0, 0.12),
                (698.0, 0.45),
                (880.0, 0.6),
            ],
            Wave::Square,
            0.35,
        ),
    }
}

#[derive(Clone, Copy)]
enum Wave {
    Sine,
    Square,
    Triangle,
}

fn osc(w: Wave, phase: f32) -> f32 {
    let p = phase.rem_euclid(1.0);
    match w {
        Wave::Sine => (p * TAU).sin(),
        Wave::Square => {
            if p < 0.5 {
                1.0
            } else {
                -1.0
            }
        }
        Wave::Triangle => 4.0 * (p - 0.5).abs() - 1.0,
    }
}

/// A short attack and a linear release, so notes do not click.
fn envelope(i: usize, n: usize) -> f32 {
    let attack = (RATE as usize / 200).max(1);
    if i < attack {
        i as f32 / attack as f32
    } else {
        1.0 - (i - attack) as f32 / (n - attack).max(1) as f32
    }
}

fn tone(notes: &[(f32, f32)], w: Wave, gain: f32) -> Vec<f32> {
    let mut out = Vec::new();
    for &(freq, secs) in notes {
        let n = (secs * RATE as f32) as usize;
        for i in 0..n {
            let t = i as f32 / RATE as f32;
            out.push(gain * envelope(i, n) * osc(w, freq * t));
        }
    }
    out
}

fn sweep(from: f32, to: f32, secs: f32, w: Wave, gain: f32) -> Vec<f32> {
    let n = (secs * RATE as f32) as usize;
    let mut phase = 0.0f32;
    (0..n)
        .map(|i| {
            let f = from + (to - from) * i as f32 / n as f32;
            phase += f / RATE as f32;
            gain * envelope(i, n) * osc(w, phase)
        })
        .collect()
}

/// White noise from a small deterministic generator (xorshift).
fn noise(seed: u32) -> impl FnMut() -> f32 {
    let mut x = seed.max(1);
    move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        (x as f32 / u32::MAX as f32) * 2.0 - 1.0
    }
}

fn noise_burst(secs: f32, gain: f32, seed: u32) -> Vec<f32> {
    let n = (secs * RATE as f32) as usize;
    let mut rnd = noise(seed);
    // A one-pole low-pass makes it a thud rather than a hiss.
    let mut lp = 0.0f32;
    (0..n)
        .map(|i| {
            lp += 0.25 * (rnd() - lp);
            let decay = (1.0 - i as f32 / n as f32).powi(2);
            gain * decay * lp * 2.0
        })
        .collect()
}

fn noisy_sweep(from: f32, to: f32, secs: f32, gain: f32) -> Vec<f32> {
    let tone = sweep(from, to, secs, Wave::Sine, 1.0);
    let mut rnd = noise(3);
    let n = tone.len();
    tone.iter()
        .enumerate()
        .map(|(i, s)| gain * envelope(i, n) * (0.6 * s + 0.4 * rnd()))
        .collect()
}

fn mix(a: &[f32], b: &[f32]) -> Vec<f32> {
    (0..a.len().max(b.len()))
        .map(|i| {
            (a.get(i).copied().unwrap_or(0.0) + b.get(i).copied().unwrap_or(0.0)).clamp(-1.0, 1.0)
        })
        .collect()
}

/// 16-bit mono PCM in a WAV container.
pub fn wav(samples: &[f32]) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        let v = (s.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16;
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sound_is_audible_and_in_range() {
        for s in Sound::ALL {
            let samples = synth(s);
            assert!(samples.len() > RATE as usize / 50, "{s:?} is too short");
            let peak = samples.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            assert!(peak > 0.1 && peak <= 1.0, "{s:?} peak {peak}");
        }
    }

    #[test]
    fn wav_header_matches_the_data() {
        let bytes = wav(&[0.0, 1.0, -1.0]);
        assert_eq!(&bytes[0..4], b"RIFF");
        assert_eq!(bytes.len(), 44 + 6);
        assert_eq!(u32::from_le_bytes(bytes[40..44].try_into().unwrap()), 6);
        assert_eq!(i16::from_le_bytes([bytes[46], bytes[47]]), i16::MAX);
    }
}

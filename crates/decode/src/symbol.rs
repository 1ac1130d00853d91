//! A decoded barcode: its symbology and its text.

use serde::{Deserialize, Serialize};

/// A barcode symbology, as bterm reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Format {
    /// Code 128 (1D): the printed card number.
    Code128,
    /// QR Code (2D): a card number or a whole custom card.
    QrCode,
    /// EAN-13 (product barcode).
    Ean13,
    /// EAN-8 (product barcode).
    Ean8,
    /// UPC-A (product barcode).
    UpcA,
    /// UPC-E (product barcode).
    UpcE,
    /// Code 39.
    Code39,
    /// Code 93.
    Code93,
    /// Codabar.
    Codabar,
    /// Interleaved 2 of 5.
    Itf,
    /// Any other symbology rxing reads.
    Other,
}

impl Format {
    /// The format of an rxing result.
    pub fn from_rxing(format: &rxing::BarcodeFormat) -> Format {
        use rxing::BarcodeFormat as B;
        match format {
            B::CODE_128 => Format::Code128,
            B::QR_CODE => Format::QrCode,
            B::EAN_13 => Format::Ean13,
            B::EAN_8 => Format::Ean8,
            B::UPC_A => Format::UpcA,
            B::UPC_E => Format::UpcE,
            B::CODE_39 => Format::Code39,
            B::CODE_93 => Format::Code93,
            B::CODABAR => Format::Codabar,
            B::ITF => Format::Itf,
            _ => Format::Other,
        }
    }

    /// The name people know it by.
    pub fn name(self) -> &'static str {
        match self {
            Format::Code128 => "Code 128",
            Format::QrCode => "QR Code",
            Format::Ean13 => "EAN-13",
            Format::Ean8 => "EAN-8",
            Format::UpcA => "UPC-A",
            Format::UpcE => "UPC-E",
            Format::Code39 => "Code 39",
            Format::Code93 => "Code 93",
            Format::Codabar => "Codabar",
            Format::Itf => "ITF",
            Format::Other => "barcode",
        }
    }

    /// Every format, in the order above.
    pub const ALL: [Format; 11] = [
        Format::Code128,
        Format::QrCode,
        Format::Ean13,
        Format::Ean8,
        Format::UpcA,
        Format::UpcE,
        Format::Code39,
        Format::Code93,
        Format::Codabar,
        Format::Itf,
        Format::Other,
    ];

    /// The format a [`Format::name`] names.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// A retail product code (EAN/UPC): these become wild Digimon.
    pub fn is_product(self) -> bool {
        matches!(
            self,
            Format::Ean13 | Format::Ean8 | Format::UpcA | Format::UpcE
        )
    }
}

/// One decoded barcode: its symbology and its text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Symbol {
    /// The symbology.
    pub format: Format,
    /// The text it carries.
    pub text: String,
}

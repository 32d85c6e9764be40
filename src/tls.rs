//! HTTPS for a host that other machines reach (its seats and its live feed): a certificate the
//! host makes itself (rcgen),
//! kept beside the game's record so that a resumed host keeps it, and pinned by the seats by
//! its SHA-256, which the invitation carries after `#` (`cert=<hex>`). No certificate
//! authority is asked or trusted: a seat takes the one certificate its invitation names and
//! refuses any other, while the handshake's signatures are still checked (the host must hold
//! the certificate's key).

use rustls::DigitallySignedStruct;
use rustls::SignatureScheme;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A certificate's SHA-256, as the invitation carries it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Fingerprint(pub [u8; 32]);

impl Fingerprint {
    pub fn of(cert_der: &[u8]) -> Fingerprint {
        let digest = ring::digest::digest(&ring::digest::SHA256, cert_der);
        let mut bytes = [0u8; 32];
        bytes.copy_from_slice(digest.as_ref());
        Fingerprint(bytes)
    }

    pub fn hex(&self) -> String {
        crate::hex::encode(&self.0)
    }

    /// 64 hexadecimal digits (either case).
    pub fn from_hex(text: &str) -> Option<Fingerprint> {
        crate::hex::decode(text).map(Fingerprint)
    }
}

/// The host's certificate and its key.
pub struct Identity {
    cert: CertificateDer<'static>,
    key: PrivateKeyDer<'static>,
}

impl Identity {
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(&self.cert)
    }

    /// What the host's server accepts connections with.
    pub fn acceptor(&self) -> Result<tokio_rustls::TlsAcceptor, rustls::Error> {
        let config = rustls::ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()?
            .with_no_client_auth()
            .with_single_cert(vec![self.cert.clone()], self.key.clone_key())?;
        Ok(tokio_rustls::TlsAcceptor::from(Arc::new(config)))
    }
}

/// The files beside a record: `<record>.cert.pem` and `<record>.key.pem`.
pub fn paths(record: &Path) -> (PathBuf, PathBuf) {
    let beside = |ext: &str| {
        let mut name = record.file_name().unwrap_or_default().to_os_string();
        name.push(ext);
        record.with_file_name(name)
    };
    (beside(".cert.pem"), beside(".key.pem"))
}

/// The certificate kept beside `record`, or a new one made for `names` (the host's addresses)
/// and written there (the key readable by the owner only). A kept pair that cannot be read is
/// an error, never replaced: its seats' invitations pin it.
pub fn identity(record: &Path, names: &[String]) -> Result<Identity, String> {
    let (cert_path, key_path) = paths(record);
    if cert_path.exists() || key_path.exists() {
        let cert = CertificateDer::from_pem_file(&cert_path).map_err(|e| format!("{}: {e}", cert_path.display()))?;
        let key = PrivateKeyDer::from_pem_file(&key_path).map_err(|e| format!("{}: {e}", key_path.display()))?;
        return Ok(Identity { cert, key });
    }
    let made = rcgen::generate_simple_self_signed(names.to_vec()).map_err(|e| e.to_string())?;
    write_private(&key_path, made.signing_key.serialize_pem().as_bytes())
        .map_err(|e| format!("{}: {e}", key_path.display()))?;
    crate::record::write_atomic(&cert_path, &made.cert.pem()).map_err(|e| format!("{}: {e}", cert_path.display()))?;
    let key = PrivateKeyDer::try_from(made.signing_key.serialize_der()).map_err(|e| e.to_string())?;
    Ok(Identity { cert: made.cert.der().clone(), key })
}

/// Writes `bytes` to a file created readable and writable by its owner only, then renamed
/// into place.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut tmp = path.as_os_str().to_os_string();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&tmp, path)
}

/// ring's provider. rustls 0.23.48 marks it deprecated for its lack of post-quantum key
/// exchange, which only the aws-lc-rs provider has; that one's C build is long here, and the
/// certificate is pinned, so ring's classic key exchange stands.
/// Made once: every seat's request and every accepted connection use the same one.
#[allow(deprecated)]
fn provider() -> Arc<CryptoProvider> {
    static PROVIDER: std::sync::OnceLock<Arc<CryptoProvider>> = std::sync::OnceLock::new();
    PROVIDER.get_or_init(|| Arc::new(rustls::crypto::ring::default_provider())).clone()
}

/// What a seat or a spectator connects with: the one certificate whose SHA-256 is `pin`.
pub fn connector(pin: Fingerprint) -> Result<tokio_rustls::TlsConnector, rustls::Error> {
    let provider = provider();
    let config = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(Pinned { pin, provider }))
        .with_no_client_auth();
    Ok(tokio_rustls::TlsConnector::from(Arc::new(config)))
}

/// The name a connection to `addr` (`host:port`) gives in its handshake.
pub fn server_name(addr: &str) -> ServerName<'static> {
    let host = addr.rsplit_once(':').map_or(addr, |(h, _)| h).trim_start_matches('[').trim_end_matches(']');
    ServerName::try_from(host.to_string()).unwrap_or_else(|_| ServerName::try_from("tablero.invalid").expect("a name"))
}

/// Whether `error` (from a connection) is a certificate other than the pinned one.
pub fn is_other_certificate(error: &std::io::Error) -> bool {
    let inner = error.get_ref().and_then(|e| e.downcast_ref::<rustls::Error>());
    matches!(inner, Some(rustls::Error::InvalidCertificate(rustls::CertificateError::ApplicationVerificationFailure)))
}

/// Takes the pinned certificate and no other; the handshake's signatures are checked with the
/// provider's algorithms, so that a host must hold the certificate's key.
#[derive(Debug)]
struct Pinned {
    pin: Fingerprint,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        use subtle::ConstantTimeEq;
        if bool::from(Fingerprint::of(end_entity).0.ct_eq(&self.pin.0)) {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::InvalidCertificate(rustls::CertificateError::ApplicationVerificationFailure))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider.signature_verification_algorithms.supported_schemes()
    }
}

<?php
/**
 * Calls to the svc server.
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;

/**
 * Server-to-server calls of the embedded panel protocol (link, unlink, bootstrap), through wp_safe_remote_request
 * with a timeout. Failures come back as WP_Error carrying svc's own message, or a message saying the server
 * could not be reached or may not be called.
 *
 * wp_safe_remote_request calls only public addresses on ports 80, 443 and 8080. An svc on a private network (or
 * on another port) is called when wp-config.php defines SVC_BOOKING_ALLOW_PRIVATE_SERVER as true, and then only
 * the svc server's own host and port are let through, for the duration of the call.
 */
final class Svc_Booking_Client {

	/** Seconds to wait for svc before giving up. */
	const TIMEOUT = 10;

	/** The path segment svc serves the panel routes under for this platform. */
	const PLATFORM = 'wordpress';

	/** The wp-config.php constant that lets the plugin call an svc on a private address or another port. */
	const ALLOW_PRIVATE = 'SVC_BOOKING_ALLOW_PRIVATE_SERVER';

	/**
	 * Settings.
	 *
	 * @var Svc_Booking_Options
	 */
	private $options;

	/**
	 * Constructor.
	 *
	 * @param Svc_Booking_Options $options Settings.
	 */
	public function __construct( Svc_Booking_Options $options ) {
		$this->options = $options;
	}

	/**
	 * Links this site's origin with a pairing code.
	 *
	 * @param string $server_url     svc address.
	 * @param string $workspace_slug Workspace slug.
	 * @param string $pairing_code   Single-use pairing code.
	 * @param string $origin         This site's origin.
	 * @return array|WP_Error svc's answer ({ hostCredential, origin, workspaceSlug }) or the failure.
	 */
	public function link( string $server_url, string $workspace_slug, string $pairing_code, string $origin ) {
		return $this->call(
			'PUT',
			$server_url . '/api/integrations/' . self::PLATFORM . '/panel/origin',
			'SvcPair ' . $pairing_code,
			array(
				'version'       => 1,
				'workspaceSlug' => $workspace_slug,
				'origin'        => $origin,
			)
		);
	}

	/**
	 * Revokes the stored link on svc (its credential stops working at once).
	 *
	 * @return array|WP_Error Empty array on 204, or the failure.
	 */
	public function unlink() {
		return $this->call( 'DELETE', $this->options->server_url() . '/api/integrations/' . self::PLATFORM . '/panel/origin', 'SvcHost ' . $this->options->credential(), null );
	}

	/**
	 * Asks svc for a one-time panel code for a WordPress user.
	 *
	 * @param int $user_id The WordPress user (the panel's subject).
	 * @return array|WP_Error svc's answer ({ code, frameContext, expiresAt, workspaceSlug }) or the failure.
	 */
	public function bootstrap( int $user_id ) {
		return $this->call(
			'POST',
			$this->options->server_url() . '/api/integrations/' . self::PLATFORM . '/panel/bootstrap',
			'SvcHost ' . $this->options->credential(),
			array(
				'version'       => 1,
				'workspaceSlug' => $this->options->workspace_slug(),
				'origin'        => $this->options->linked_origin(),
				'subject'       => (string) $user_id,
				'role'          => 'ADMIN',
				'capabilities'  => array( 'svc_manage_operations', 'svc_manage_settings' ),
			)
		);
	}

	/**
	 * One JSON call.
	 *
	 * @param string     $method        HTTP method.
	 * @param string     $url           Full address.
	 * @param string     $authorization Authorization header value.
	 * @param array|null $body          JSON body, or none.
	 * @return array|WP_Error The decoded body (empty for 204), or a WP_Error whose data holds the HTTP status.
	 */
	private function call( string $method, string $url, string $authorization, ?array $body ) {
		$host = strtolower( trim( (string) wp_parse_url( $url, PHP_URL_HOST ), '.' ) );
		$port = (int) wp_parse_url( $url, PHP_URL_PORT );
		if ( self::private_server_allowed() && '' !== $host ) {
			// Scoped to the svc server's host: every other request of the site keeps WordPress's rules.
			$external = static function ( $is_external, $requested_host ) use ( $host ) {
				return $is_external || strtolower( (string) $requested_host ) === $host;
			};
			$ports    = static function ( $allowed, $requested_host ) use ( $host, $port ) {
				if ( $port > 0 && is_array( $allowed ) && strtolower( (string) $requested_host ) === $host ) {
					$allowed[] = $port;
				}
				return $allowed;
			};
			add_filter( 'http_request_host_is_external', $external, 10, 2 );
			add_filter( 'http_allowed_safe_ports', $ports, 10, 2 );
		}
		try {
			$response = false === wp_http_validate_url( $url )
				? $this->refusal( $url, $host, $port )
				: wp_safe_remote_request(
					$url,
					array(
						'method'      => $method,
						'timeout'     => self::TIMEOUT,
						'redirection' => 0,
						'headers'     => array(
							'Authorization' => $authorization,
							'Content-Type'  => 'application/json',
							'Accept'        => 'application/json',
						),
						'body'        => null === $body ? null : wp_json_encode( $body ),
					)
				);
		} finally {
			if ( isset( $external, $ports ) ) {
				remove_filter( 'http_request_host_is_external', $external, 10 );
				remove_filter( 'http_allowed_safe_ports', $ports, 10 );
			}
		}

		if ( is_wp_error( $response ) && 'svc_booking_not_allowed' === $response->get_error_code() ) {
			return $response;
		}
		if ( is_wp_error( $response ) ) {
			return new WP_Error(
				'svc_booking_unreachable',
				sprintf(
					/* translators: 1: the svc server address, 2: the network error */
					__( 'The svc server at %1$s could not be reached: %2$s', 'svc-booking' ),
					$this->origin_of( $url ),
					$response->get_error_message()
				),
				array( 'status' => 502 )
			);
		}

		$status  = (int) wp_remote_retrieve_response_code( $response );
		$decoded = json_decode( wp_remote_retrieve_body( $response ), true );
		if ( $status >= 200 && $status < 300 ) {
			return is_array( $decoded ) ? $decoded : array();
		}

		if ( is_array( $decoded ) && isset( $decoded['error'] ) && is_string( $decoded['error'] ) ) {
			return new WP_Error(
				'svc_booking_refused',
				sprintf(
					/* translators: 1: svc's error message, 2: svc's error code */
					__( 'svc refused: %1$s (%2$s)', 'svc-booking' ),
					$decoded['error'],
					isset( $decoded['code'] ) && is_string( $decoded['code'] ) ? $decoded['code'] : (string) $status
				),
				array(
					'status' => $status,
					'body'   => $decoded,
				)
			);
		}

		return new WP_Error(
			'svc_booking_bad_answer',
			sprintf(
				/* translators: 1: the svc server address, 2: HTTP status code */
				__( 'The server at %1$s answered with HTTP %2$d and no svc error message. Is this the address of an svc server?', 'svc-booking' ),
				$this->origin_of( $url ),
				$status
			),
			array( 'status' => 502 )
		);
	}

	/**
	 * Whether wp-config.php lets the plugin call an svc on a private address or a port other than 80, 443, 8080.
	 */
	public static function private_server_allowed(): bool {
		return defined( self::ALLOW_PRIVATE ) && (bool) constant( self::ALLOW_PRIVATE );
	}

	/**
	 * Why wp_safe_remote_request would refuse an address: its host name does not resolve, it is private or
	 * loopback, or its port is not one WordPress calls.
	 *
	 * @param string $url  Full address.
	 * @param string $host Its host, lower case.
	 * @param int    $port Its port, or 0.
	 * @return WP_Error 'svc_booking_not_allowed', or a network error for a host name that does not resolve.
	 */
	private function refusal( string $url, string $host, int $port ): WP_Error {
		$is_ip = (bool) filter_var( $host, FILTER_VALIDATE_IP );
		$ip    = $is_ip ? $host : gethostbyname( $host );
		if ( '' === $host || ( ! $is_ip && $ip === $host ) ) {
			return new WP_Error( 'http_request_failed', __( 'its host name was not found.', 'svc-booking' ) );
		}
		if ( false === filter_var( $ip, FILTER_VALIDATE_IP, FILTER_FLAG_NO_PRIV_RANGE | FILTER_FLAG_NO_RES_RANGE ) ) {
			/* translators: %s: IP address */
			$reason = sprintf( __( '%s is a private or loopback address.', 'svc-booking' ), $ip );
		} elseif ( $port > 0 && ! in_array( $port, array( 80, 443, 8080 ), true ) ) {
			/* translators: %d: port number */
			$reason = sprintf( __( 'WordPress calls out only on the ports 80, 443 and 8080, not on %d.', 'svc-booking' ), $port );
		} else {
			$reason = __( 'it is not an address WordPress calls out to.', 'svc-booking' );
		}
		return new WP_Error(
			'svc_booking_not_allowed',
			sprintf(
				/* translators: 1: the svc server address, 2: why it is not called, 3: the line to add to wp-config.php */
				__( 'WordPress does not call the svc server at %1$s: %2$s For an svc server on a private network, add %3$s to wp-config.php.', 'svc-booking' ),
				$this->origin_of( $url ),
				$reason,
				"define( '" . self::ALLOW_PRIVATE . "', true );"
			),
			array( 'status' => 502 )
		);
	}

	/**
	 * Scheme, host and port of an address, for messages.
	 *
	 * @param string $url Address.
	 */
	private function origin_of( string $url ): string {
		$parts = wp_parse_url( $url );
		if ( empty( $parts['host'] ) ) {
			return $url;
		}
		return ( $parts['scheme'] ?? 'https' ) . '://' . $parts['host'] . ( empty( $parts['port'] ) ? '' : ':' . $parts['port'] );
	}
}

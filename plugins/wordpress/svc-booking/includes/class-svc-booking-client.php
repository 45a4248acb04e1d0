<?php
/**
 * Calls to the svc server.
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;

/**
 * Server-to-server calls of the embedded panel protocol (link, unlink, bootstrap), through wp_remote_request
 * with a timeout. Failures come back as WP_Error carrying svc's own message, or a message saying the server
 * could not be reached.
 */
final class Svc_Booking_Client {

	/** Seconds to wait for svc before giving up. */
	const TIMEOUT = 10;

	/** The path segment svc serves the panel routes under for this platform. */
	const PLATFORM = 'wordpress';

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
		$response = wp_remote_request(
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

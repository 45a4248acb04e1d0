<?php
/**
 * The REST route the host script calls to bootstrap the panel.
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;

/**
 * POST /wp-json/svc-booking/v1/bootstrap: cookie authentication with X-WP-Nonce, manage_options only. Calls
 * svc's bootstrap with role ADMIN, the WordPress user id as subject and both capabilities, and returns svc's
 * JSON (the one-time code, never the host credential).
 */
final class Svc_Booking_Rest {

	const NAMESPACE = 'svc-booking/v1';
	const BOOTSTRAP = '/bootstrap';

	/**
	 * Settings.
	 *
	 * @var Svc_Booking_Options
	 */
	private $options;

	/**
	 * svc calls.
	 *
	 * @var Svc_Booking_Client
	 */
	private $client;

	/**
	 * Constructor.
	 *
	 * @param Svc_Booking_Options $options Settings.
	 * @param Svc_Booking_Client  $client  svc calls.
	 */
	public function __construct( Svc_Booking_Options $options, Svc_Booking_Client $client ) {
		$this->options = $options;
		$this->client  = $client;
	}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		register_rest_route(
			self::NAMESPACE,
			self::BOOTSTRAP,
			array(
				'methods'             => WP_REST_Server::CREATABLE,
				'callback'            => array( $this, 'bootstrap' ),
				'permission_callback' => array( $this, 'can_manage' ),
				'args'                => array(),
			)
		);
	}

	/**
	 * Only administrators (manage_options) open the panel; without a valid X-WP-Nonce the user is anonymous here.
	 */
	public function can_manage(): bool {
		return current_user_can( 'manage_options' );
	}

	/**
	 * Bootstraps the panel for the current user.
	 *
	 * @return WP_REST_Response|WP_Error
	 */
	public function bootstrap() {
		if ( ! $this->options->is_connected() ) {
			return new WP_Error( 'svc_booking_not_connected', __( 'This site is not connected to svc. Connect it under Settings → svc Booking.', 'svc-booking' ), array( 'status' => 409 ) );
		}
		$issued = $this->client->bootstrap( get_current_user_id() );
		if ( is_wp_error( $issued ) ) {
			$data = $issued->get_error_data();
			if ( is_array( $data ) && isset( $data['body'] ) ) {
				// svc's own error body, unchanged, with its status: the host script reports it.
				return new WP_REST_Response( $data['body'], (int) $data['status'] );
			}
			return $issued;
		}
		// WordPress marks REST answers to signed-in users as not cacheable (no-cache, max-age=0) on its own.
		return new WP_REST_Response( $issued, 201 );
	}
}

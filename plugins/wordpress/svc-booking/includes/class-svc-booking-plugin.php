<?php
/**
 * Registers every hook of the plugin, in one place.
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;

/**
 * Wires the concerns together: settings, the Bookings page, the REST route and the widget.
 */
final class Svc_Booking_Plugin {

	/**
	 * Builds the objects and hooks them into WordPress.
	 */
	public static function boot(): void {
		$options  = new Svc_Booking_Options();
		$client   = new Svc_Booking_Client( $options );
		$notices  = new Svc_Booking_Notices();
		$settings = new Svc_Booking_Settings_Page( $options, $client, $notices );
		$panel    = new Svc_Booking_Panel_Page( $options );
		$rest     = new Svc_Booking_Rest( $options, $client );
		$widget   = new Svc_Booking_Widget( $options );

		add_action( 'init', array( __CLASS__, 'load_textdomain' ) );

		add_action( 'admin_menu', array( $settings, 'add_page' ) );
		add_action( 'admin_post_svc_booking_connect', array( $settings, 'handle_connect' ) );
		add_action( 'admin_post_svc_booking_disconnect', array( $settings, 'handle_disconnect' ) );
		add_action( 'admin_post_svc_booking_display', array( $settings, 'handle_display' ) );
		add_action( 'admin_notices', array( $notices, 'render' ) );
		add_filter( 'plugin_action_links_' . plugin_basename( SVC_BOOKING_FILE ), array( $settings, 'action_links' ) );

		add_action( 'admin_menu', array( $panel, 'add_page' ) );
		add_action( 'admin_enqueue_scripts', array( $panel, 'enqueue' ) );

		add_action( 'rest_api_init', array( $rest, 'register_routes' ) );

		add_action( 'init', array( $widget, 'register' ) );
	}

	/**
	 * Loads translations shipped with the plugin (WordPress.org language packs load on their own).
	 */
	public static function load_textdomain(): void {
		load_plugin_textdomain( 'svc-booking', false, dirname( plugin_basename( SVC_BOOKING_FILE ) ) . '/languages' );
	}
}

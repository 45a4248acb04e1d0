<?php
/**
 * Plugin Name:       svc Booking
 * Plugin URI:        https://github.com/svc-booking/svc
 * Description:       Connects the site to an svc booking server: manage bookings in wp-admin and put the booking widget on any page with a block or the [svc_booking] shortcode.
 * Version:           0.1.0
 * Requires at least: 6.1
 * Requires PHP:      8.1
 * Author:            svc
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       svc-booking
 * Domain Path:       /languages
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;

define( 'SVC_BOOKING_VERSION', '0.1.0' );
define( 'SVC_BOOKING_FILE', __FILE__ );
define( 'SVC_BOOKING_DIR', plugin_dir_path( __FILE__ ) );
define( 'SVC_BOOKING_URL', plugin_dir_url( __FILE__ ) );

require_once SVC_BOOKING_DIR . 'includes/class-svc-booking-options.php';
require_once SVC_BOOKING_DIR . 'includes/class-svc-booking-client.php';
require_once SVC_BOOKING_DIR . 'includes/class-svc-booking-notices.php';
require_once SVC_BOOKING_DIR . 'includes/class-svc-booking-settings-page.php';
require_once SVC_BOOKING_DIR . 'includes/class-svc-booking-panel-page.php';
require_once SVC_BOOKING_DIR . 'includes/class-svc-booking-rest.php';
require_once SVC_BOOKING_DIR . 'includes/class-svc-booking-widget.php';
require_once SVC_BOOKING_DIR . 'includes/class-svc-booking-plugin.php';

Svc_Booking_Plugin::boot();

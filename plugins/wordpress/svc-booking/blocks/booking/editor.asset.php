<?php
/**
 * Dependencies of editor.js (written by hand: the plugin has no build step).
 *
 * @package SvcBooking
 */

defined( 'ABSPATH' ) || exit;

return array(
	'dependencies' => array( 'wp-blocks', 'wp-element', 'wp-block-editor', 'wp-components', 'wp-i18n' ),
	'version'      => '0.1.0',
);

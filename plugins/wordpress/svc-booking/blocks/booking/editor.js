/**
 * Editor side of the svc Booking block: a preview box and controls for service, position and theme. Plain
 * JavaScript on WordPress's globals (no build step); the front end is rendered by PHP.
 */
( function ( blocks, element, blockEditor, components, i18n ) {
	'use strict';
	var el = element.createElement;
	var __ = i18n.__;
	var sprintf = i18n.sprintf;

	blocks.registerBlockType( 'svc-booking/booking', {
		edit: function ( props ) {
			var attributes = props.attributes;
			var set = props.setAttributes;
			var positions = {
				inline: __( 'In the page', 'svc-booking' ),
				'bottom-right': __( 'Button, bottom right', 'svc-booking' ),
				'bottom-left': __( 'Button, bottom left', 'svc-booking' ),
			};
			var themes = {
				auto: __( 'Follow the visitor (light or dark)', 'svc-booking' ),
				light: __( 'Light', 'svc-booking' ),
				dark: __( 'Dark', 'svc-booking' ),
			};
			var options = function ( labels ) {
				return Object.keys( labels ).map( function ( value ) {
					return { value: value, label: labels[ value ] };
				} );
			};

			var controls = el(
				blockEditor.InspectorControls,
				null,
				el(
					components.PanelBody,
					{ title: __( 'Booking widget', 'svc-booking' ), initialOpen: true },
					el( components.TextControl, {
						label: __( 'Service id (optional)', 'svc-booking' ),
						help: __( 'Start with this service and skip the service step.', 'svc-booking' ),
						value: attributes.service,
						onChange: function ( value ) { set( { service: value } ); },
					} ),
					el( components.SelectControl, {
						label: __( 'Position', 'svc-booking' ),
						value: attributes.position,
						options: options( positions ),
						onChange: function ( value ) { set( { position: value } ); },
					} ),
					el( components.SelectControl, {
						label: __( 'Theme', 'svc-booking' ),
						value: attributes.theme,
						options: options( themes ),
						onChange: function ( value ) { set( { theme: value } ); },
					} ),
					el( components.TextControl, {
						label: __( 'Workspace slug (optional)', 'svc-booking' ),
						help: __( 'Empty: the workspace this site is connected to.', 'svc-booking' ),
						value: attributes.slug,
						onChange: function ( value ) { set( { slug: value } ); },
					} )
				)
			);

			var preview = el(
				'div',
				blockEditor.useBlockProps( { className: 'svc-booking-block-preview' } ),
				el( 'strong', null, __( 'svc booking widget', 'svc-booking' ) ),
				el(
					'p',
					null,
					sprintf(
						/* translators: 1: position, 2: theme */
						__( '%1$s · %2$s', 'svc-booking' ),
						positions[ attributes.position ] || attributes.position,
						themes[ attributes.theme ] || attributes.theme
					)
				),
				attributes.service ? el( 'p', null, sprintf( __( 'Starts with service %s', 'svc-booking' ), attributes.service ) ) : null,
				el( 'p', null, __( 'Visitors book here on the published page.', 'svc-booking' ) )
			);

			return el( element.Fragment, null, controls, preview );
		},
		save: function () {
			return null;
		},
	} );
} )( window.wp.blocks, window.wp.element, window.wp.blockEditor, window.wp.components, window.wp.i18n );

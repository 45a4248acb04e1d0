/**
 * Editor side of the svc Booking block: a preview box and controls for service, position and theme. Plain
 * JavaScript on WordPress's globals (no build step); the front end is rendered by PHP.
 */
((blocks, element, blockEditor, components, i18n) => {
  const el = element.createElement;
  const __ = i18n.__;
  const sprintf = i18n.sprintf;

  blocks.registerBlockType('svc-booking/booking', {
    edit: (props) => {
      const attributes = props.attributes;
      const set = props.setAttributes;
      const positions = {
        inline: __('In the page', 'svc-booking'),
        'bottom-right': __('Button, bottom right', 'svc-booking'),
        'bottom-left': __('Button, bottom left', 'svc-booking'),
      };
      const themes = {
        auto: __('Follow the visitor (light or dark)', 'svc-booking'),
        light: __('Light', 'svc-booking'),
        dark: __('Dark', 'svc-booking'),
      };
      const options = (labels) => Object.keys(labels).map((value) => ({ value: value, label: labels[value] }));

      const controls = el(
        blockEditor.InspectorControls,
        null,
        el(
          components.PanelBody,
          { title: __('Booking widget', 'svc-booking'), initialOpen: true },
          el(components.TextControl, {
            label: __('Service id (optional)', 'svc-booking'),
            help: __('Start with this service and skip the service step.', 'svc-booking'),
            value: attributes.service,
            onChange: (value) => {
              set({ service: value });
            },
          }),
          el(components.SelectControl, {
            label: __('Position', 'svc-booking'),
            value: attributes.position,
            options: options(positions),
            onChange: (value) => {
              set({ position: value });
            },
          }),
          el(components.SelectControl, {
            label: __('Theme', 'svc-booking'),
            value: attributes.theme,
            options: options(themes),
            onChange: (value) => {
              set({ theme: value });
            },
          }),
          el(components.TextControl, {
            label: __('Workspace slug (optional)', 'svc-booking'),
            help: __('Empty: the workspace this site is connected to.', 'svc-booking'),
            value: attributes.slug,
            onChange: (value) => {
              set({ slug: value });
            },
          }),
        ),
      );

      const preview = el(
        'div',
        blockEditor.useBlockProps({
          className: 'svc-booking-block-preview',
          style: { border: '1px dashed #949494', borderRadius: '4px', padding: '16px 20px' },
        }),
        el('strong', null, __('svc booking widget', 'svc-booking')),
        el(
          'p',
          null,
          sprintf(
            /* translators: 1: position, 2: theme */
            __('%1$s · %2$s', 'svc-booking'),
            positions[attributes.position] || attributes.position,
            themes[attributes.theme] || attributes.theme,
          ),
        ),
        attributes.service ? el('p', null, sprintf(__('Starts with service %s', 'svc-booking'), attributes.service)) : null,
        el('p', null, __('Visitors book here on the published page.', 'svc-booking')),
      );

      return el(element.Fragment, null, controls, preview);
    },
    save: () => null,
  });
})(window.wp.blocks, window.wp.element, window.wp.blockEditor, window.wp.components, window.wp.i18n);

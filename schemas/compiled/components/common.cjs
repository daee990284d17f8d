// Generated from schemas/components/common.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/common.schema.json","title":"Params every component accepts","description":"RAGFlow's ComponentParamBase params, plus canvasflow's exec_timeout. Each component's own schema adds its params; unknown keys are accepted, as RAGFlow does.","type":"object","properties":{"message_history_window_size":{"type":"integer","minimum":0},"inputs":{"type":["object","array"],"description":"The input form (Begin, UserFillUp) or resolved input values."},"outputs":{"type":["object","array"],"description":"Declared output variables {name: {type, value?, ref?}}."},"description":{"type":"string"},"max_retries":{"type":"integer","minimum":0,"description":"Retries after a failure."},"delay_after_error":{"type":"number","minimum":0,"description":"Seconds to wait between retries."},"exception_method":{"description":"What to do when the component fails: goto the exception_goto ids, or comment (continue with exception_default_value). Empty: the run fails.","enum":["goto","comment","",null]},"exception_default_value":{"description":"The output used instead when exception_method is comment."},"exception_goto":{"description":"Component ids to continue with when exception_method is goto.","anyOf":[{"type":"array","items":{"type":"string"}},{"type":"null"},{"type":"string","maxLength":0}]},"exec_timeout":{"type":"number","exclusiveMinimum":0,"description":"canvasflow: this component's timeout in seconds."},"debug_inputs":{"type":["object","array"]}}};
const func1 = require("ajv/dist/runtime/ucs2length").default;

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/common.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.message_history_window_size !== undefined){
let data0 = data.message_history_window_size;
if(!((typeof data0 == "number") && (!(data0 % 1) && !isNaN(data0)))){
const err0 = {instancePath:instancePath+"/message_history_window_size",schemaPath:"#/properties/message_history_window_size/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema31.properties.message_history_window_size.type,parentSchema:schema31.properties.message_history_window_size,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(typeof data0 == "number"){
if(data0 < 0 || isNaN(data0)){
const err1 = {instancePath:instancePath+"/message_history_window_size",schemaPath:"#/properties/message_history_window_size/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.message_history_window_size,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
}
if(data.inputs !== undefined){
let data1 = data.inputs;
if(!data1 || typeof data1 != "object"){
const err2 = {instancePath:instancePath+"/inputs",schemaPath:"#/properties/inputs/type",keyword:"type",params:{type: schema31.properties.inputs.type},message:"must be object,array",schema:schema31.properties.inputs.type,parentSchema:schema31.properties.inputs,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.outputs !== undefined){
let data2 = data.outputs;
if(!data2 || typeof data2 != "object"){
const err3 = {instancePath:instancePath+"/outputs",schemaPath:"#/properties/outputs/type",keyword:"type",params:{type: schema31.properties.outputs.type},message:"must be object,array",schema:schema31.properties.outputs.type,parentSchema:schema31.properties.outputs,data:data2};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.description !== undefined){
let data3 = data.description;
if(typeof data3 !== "string"){
const err4 = {instancePath:instancePath+"/description",schemaPath:"#/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.description.type,parentSchema:schema31.properties.description,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.max_retries !== undefined){
let data4 = data.max_retries;
if(!((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4)))){
const err5 = {instancePath:instancePath+"/max_retries",schemaPath:"#/properties/max_retries/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema31.properties.max_retries.type,parentSchema:schema31.properties.max_retries,data:data4};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(typeof data4 == "number"){
if(data4 < 0 || isNaN(data4)){
const err6 = {instancePath:instancePath+"/max_retries",schemaPath:"#/properties/max_retries/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.max_retries,data:data4};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
if(data.delay_after_error !== undefined){
let data5 = data.delay_after_error;
if(typeof data5 == "number"){
if(data5 < 0 || isNaN(data5)){
const err7 = {instancePath:instancePath+"/delay_after_error",schemaPath:"#/properties/delay_after_error/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.delay_after_error,data:data5};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/delay_after_error",schemaPath:"#/properties/delay_after_error/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema31.properties.delay_after_error.type,parentSchema:schema31.properties.delay_after_error,data:data5};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.exception_method !== undefined){
let data6 = data.exception_method;
if(!((((data6 === "goto") || (data6 === "comment")) || (data6 === "")) || (data6 === null))){
const err9 = {instancePath:instancePath+"/exception_method",schemaPath:"#/properties/exception_method/enum",keyword:"enum",params:{allowedValues: schema31.properties.exception_method.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.exception_method.enum,parentSchema:schema31.properties.exception_method,data:data6};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.exception_goto !== undefined){
let data7 = data.exception_goto;
const _errs15 = errors;
let valid1 = false;
const _errs16 = errors;
if(Array.isArray(data7)){
const len0 = data7.length;
for(let i0=0; i0<len0; i0++){
let data8 = data7[i0];
if(typeof data8 !== "string"){
const err10 = {instancePath:instancePath+"/exception_goto/" + i0,schemaPath:"#/properties/exception_goto/anyOf/0/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.exception_goto.anyOf[0].items.type,parentSchema:schema31.properties.exception_goto.anyOf[0].items,data:data8};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/exception_goto",schemaPath:"#/properties/exception_goto/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.exception_goto.anyOf[0].type,parentSchema:schema31.properties.exception_goto.anyOf[0],data:data7};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
var _valid0 = _errs16 === errors;
valid1 = valid1 || _valid0;
const _errs20 = errors;
if(data7 !== null){
const err12 = {instancePath:instancePath+"/exception_goto",schemaPath:"#/properties/exception_goto/anyOf/1/type",keyword:"type",params:{type: "null"},message:"must be null",schema:schema31.properties.exception_goto.anyOf[1].type,parentSchema:schema31.properties.exception_goto.anyOf[1],data:data7};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
var _valid0 = _errs20 === errors;
valid1 = valid1 || _valid0;
const _errs22 = errors;
if(typeof data7 === "string"){
if(func1(data7) > 0){
const err13 = {instancePath:instancePath+"/exception_goto",schemaPath:"#/properties/exception_goto/anyOf/2/maxLength",keyword:"maxLength",params:{limit: 0},message:"must NOT have more than 0 characters",schema:0,parentSchema:schema31.properties.exception_goto.anyOf[2],data:data7};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/exception_goto",schemaPath:"#/properties/exception_goto/anyOf/2/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.exception_goto.anyOf[2].type,parentSchema:schema31.properties.exception_goto.anyOf[2],data:data7};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid0 = _errs22 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err15 = {instancePath:instancePath+"/exception_goto",schemaPath:"#/properties/exception_goto/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.exception_goto.anyOf,parentSchema:schema31.properties.exception_goto,data:data7};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
else {
errors = _errs15;
if(vErrors !== null){
if(_errs15){
vErrors.length = _errs15;
}
else {
vErrors = null;
}
}
}
}
if(data.exec_timeout !== undefined){
let data9 = data.exec_timeout;
if(typeof data9 == "number"){
if(data9 <= 0 || isNaN(data9)){
const err16 = {instancePath:instancePath+"/exec_timeout",schemaPath:"#/properties/exec_timeout/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0",schema:0,parentSchema:schema31.properties.exec_timeout,data:data9};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/exec_timeout",schemaPath:"#/properties/exec_timeout/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema31.properties.exec_timeout.type,parentSchema:schema31.properties.exec_timeout,data:data9};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.debug_inputs !== undefined){
let data10 = data.debug_inputs;
if(!data10 || typeof data10 != "object"){
const err18 = {instancePath:instancePath+"/debug_inputs",schemaPath:"#/properties/debug_inputs/type",keyword:"type",params:{type: schema31.properties.debug_inputs.type},message:"must be object,array",schema:schema31.properties.debug_inputs.type,parentSchema:schema31.properties.debug_inputs,data:data10};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"message_history_window_size":true,"inputs":true,"outputs":true,"description":true,"max_retries":true,"delay_after_error":true,"exception_method":true,"exception_default_value":true,"exception_goto":true,"exec_timeout":true,"debug_inputs":true},"dynamicProps":false,"dynamicItems":false};

